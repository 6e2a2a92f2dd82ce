package acctest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// ExpectMapKeysChanged checks that the plan changes exactly the given keys of
// the map attribute attr of the resource at addr (added, removed or with a
// new value), and no other key: an edit of one element reads as one element.
// A value that is a list (a set in the schema) is compared without order.
func ExpectMapKeysChanged(addr, attr string, keys ...string) plancheck.PlanCheck {
	return mapKeysChanged{addr: addr, attr: attr, keys: keys}
}

type mapKeysChanged struct {
	addr, attr string
	keys       []string
}

func (c mapKeysChanged) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		b, _ := before[c.attr].(map[string]any)
		a, _ := after[c.attr].(map[string]any)
		var changed []string
		for k := range b {
			if _, ok := a[k]; !ok || !sameElement(b[k], a[k]) {
				changed = append(changed, k)
			}
		}
		for k := range a {
			if _, ok := b[k]; !ok {
				changed = append(changed, k)
			}
		}
		sort.Strings(changed)
		want := slices.Sorted(slices.Values(c.keys))
		if !slices.Equal(changed, want) {
			resp.Error = fmt.Errorf("%s: the plan changes the keys %q of %s, want exactly %q", c.addr, changed, c.attr, want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", c.addr)
}

// sameElement compares two JSON values; lists as sets.
func sameElement(x, y any) bool {
	key := func(v any) string {
		if l, ok := v.([]any); ok {
			items := make([]string, len(l))
			for i, e := range l {
				b, _ := json.Marshal(e)
				items[i] = string(b)
			}
			sort.Strings(items)
			v = items
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	return key(x) == key(y)
}
