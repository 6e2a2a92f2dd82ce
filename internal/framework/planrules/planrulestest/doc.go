// Package planrulestest holds what the tests of a planrules table share: the
// check that a resource's schema follows its table (Check) and that its page
// shows the table (Page, Table), and a plan through the framework's protocol server
// from the proposal Terraform makes (Server, Plan, Differences). It is for
// tests only, as net/http/httptest is, so the provider binary links none of it.
package planrulestest
