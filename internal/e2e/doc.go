// Package e2e holds whole-process tests: the terraform CLI runs the locally
// built provider binary against the emulator, for what spans several
// commands or needs captured logs (faults, secrets, expiring tokens).
package e2e
