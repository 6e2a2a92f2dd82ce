package framework

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
)

// ListResults streams items as list results for `terraform query`: fill
// makes the result of one item (its identity, display name, and its
// resource when req.IncludeResource) or returns false to leave it out.
// Terraform's limit ends the stream, and an error becomes one result with
// an error diagnostic that says what was being listed.
func ListResults[T any](ctx context.Context, req list.ListRequest, items iter.Seq2[T, error], what string, fill func(T, *list.ListResult) bool) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var sent int64
		for item, err := range items {
			if err != nil {
				result := req.NewListResult(ctx)
				result.Diagnostics.AddError("Unable to list "+what, APIErrorDetail("Listing the tenant's "+what, err))
				push(result)
				return
			}
			result := req.NewListResult(ctx)
			if !fill(item, &result) {
				continue
			}
			if !push(result) {
				return
			}
			if sent++; req.Limit > 0 && sent >= req.Limit {
				return
			}
		}
	}
}
