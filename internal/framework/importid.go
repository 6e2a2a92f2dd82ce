package framework

import (
	"fmt"
	"strings"
)

// ImportSep separates the parts of an import ID that names an object by
// more than one value (client_id::audience).
const ImportSep = "::"

// ImportIDParts splits an import ID made of len(names) parts joined by
// ImportSep. A part may itself hold the separator only when it is the one
// at index free (an API identifier is a URI, and urn:a::b is one); the
// others are ids and names that never do. problem says what is wrong, ""
// when nothing is: the parts are all there and none is empty.
func ImportIDParts(id string, free int, names ...string) (parts []string, problem string) {
	pieces := strings.Split(id, ImportSep)
	if len(pieces) < len(names) || (len(pieces) > len(names) && (free < 0 || free >= len(names))) {
		return nil, fmt.Sprintf("does not have %s parts separated by %q", count(len(names)), ImportSep)
	}
	extra := len(pieces) - len(names)
	parts = make([]string, 0, len(names))
	parts = append(parts, pieces[:max(free, 0)]...)
	if free >= 0 && free < len(names) {
		parts = append(parts, strings.Join(pieces[free:free+extra+1], ImportSep))
		parts = append(parts, pieces[free+extra+1:]...)
	} else {
		parts = pieces
	}
	for i, p := range parts {
		if p == "" {
			return nil, fmt.Sprintf("has an empty %s", names[i])
		}
	}
	return parts, ""
}

func count(n int) string {
	if words := []string{"two", "three", "four"}; n >= 2 && n-2 < len(words) {
		return words[n-2]
	}
	return fmt.Sprint(n)
}
