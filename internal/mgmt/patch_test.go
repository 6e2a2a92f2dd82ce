package mgmt_test

import (
	"encoding/json"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func TestPatch_leftOutNullOrValue(t *testing.T) {
	type body struct {
		A mgmt.Patch[string] `json:"a,omitzero"`
		B mgmt.Patch[string] `json:"b,omitzero"`
		C mgmt.Patch[int64]  `json:"c,omitzero"`
		D mgmt.Patch[[]int]  `json:"d,omitzero"`
	}
	got, err := json.Marshal(body{B: mgmt.Null[string](), C: mgmt.Set[int64](0), D: mgmt.Set([]int{})})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"b":null,"c":0,"d":[]}` {
		t.Fatalf("got %s", got)
	}
}
