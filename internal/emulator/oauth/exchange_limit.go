package oauth

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/time/rate"
)

// The custom token exchange's own rate limit (token-exchange-flow.md §5
// [R]: 10 % of the Authentication API's limit for the tenant's tier, 10
// requests a second on Enterprise): a token bucket over every token
// exchange request the tenant gets, whatever its client or address, taken
// before the client is authenticated.
//
// Assumptions [?]: the answer past the limit is 429 too_many_requests
// with Retry-After (the documentation read gives the limit, not the
// answer); the bucket holds one second of requests.

// DefaultExchangeRate is the emulator's default limit: the Enterprise
// tier's figure.
const DefaultExchangeRate = 10

// ExchangeLimitDescription is the error_description past the limit.
const ExchangeLimitDescription = "Too many custom token exchange requests for this tenant; try again later."

func newExchangeLimiter(perSecond float64, burst int) *rate.Limiter {
	if perSecond <= 0 {
		return nil
	}
	if burst <= 0 {
		burst = int(math.Ceil(perSecond))
	}
	return rate.NewLimiter(rate.Limit(perSecond), burst)
}

// exchangeRateLimited answers 429 and reports true when the request is past
// the limit.
func (s *Server) exchangeRateLimited(w http.ResponseWriter) bool {
	if s.exchangeLimit == nil {
		return false
	}
	r := s.exchangeLimit.Reserve()
	delay := r.Delay()
	if delay == 0 {
		return false
	}
	r.Cancel()
	s.Logf("fecte: the custom token exchange rate limit (%g a second) was reached", float64(s.exchangeLimit.Limit()))
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(max(delay, time.Second).Seconds()))))
	oauthErr(w, 429, "too_many_requests", ExchangeLimitDescription)
	return true
}
