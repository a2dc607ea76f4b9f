// Added to FerretDB 1.24's SQLite metadata by `npm run provision` (src/infra/provision.ts).
package metadata

import "strings"

// IndexColumn is the expression an index key is built on, from its quoted path steps: `_id` keeps IDColumn's JSON
// text, which lookups by _id use; any other field's last step is `->>`, its SQL value, so numbers order as numbers
// and an index can answer a sort (sort_pushdown.go).
func IndexColumn(field string, quotedSteps []string) string {
	if field == "_id" {
		return DefaultColumn + "->" + strings.Join(quotedSteps, "->")
	}

	last := len(quotedSteps) - 1

	return DefaultColumn + strings.Join(append([]string{""}, quotedSteps[:last]...), "->") + "->>" + quotedSteps[last]
}
