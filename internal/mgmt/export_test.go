package mgmt

import "time"

// HoldUntil is when the client's hold after a 429 ends (zero before any):
// tests wait for this record instead of guessing how long the client takes
// to read an answer.
func HoldUntil(c *Client) time.Time {
	c.pace.mu.Lock()
	defer c.pace.mu.Unlock()
	return c.pace.until
}
