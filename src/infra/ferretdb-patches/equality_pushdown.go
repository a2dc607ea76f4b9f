// Added to FerretDB 1.24's SQLite backend by `npm run provision` (src/infra/provision.ts). FerretDB hands SQLite a
// filter only when it is exactly {_id}, else scans (117 endpoint lists/s with 200 stored); this hands it the top-level
// string equalities and `$in` lists too, on the SQL values the indexes are built on, and an integer _id
// (docs/embedded-store.md#indexes).
//
// Pushdown must only narrow to a superset of the matches (FerretDB filters what SQLite returns again), so a field
// other than _id also matches an array ({f: "x"} matches f: ["x", ...]): an index range too, as an array's value
// is its JSON text, which starts with '[', and SQLite unions the range with the equality (MULTI-INDEX OR).
package sqlite

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// pushableField is a plain top-level field name: no operators, paths or characters that would
// need quoting beyond the "%q" the index expressions are written with.
var pushableField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// equalityPushdown returns the WHERE clause (with its leading space) and arguments for filter's
// top-level equalities on strings (and ObjectIds for _id) and `$in` lists of strings and numbers, or "" when it has none.
func equalityPushdown(filter *types.Document) (string, []any) {
	if filter == nil {
		return "", nil
	}

	// Each condition is exact (the value itself) and, but for _id, may also hold for an array (arrays).
	var exact, arrays []string
	var exactArgs [][]any

	for _, k := range filter.Keys() {
		if !pushableField.MatchString(k) {
			continue
		}

		v := must.NotFail(filter.Get(k))

		if k == "_id" {
			if pushableID(v) {
				exact = append(exact, fmt.Sprintf(`%s = ?`, metadata.IDColumn))
				arrays = append(arrays, "")
				exactArgs = append(exactArgs, []any{string(must.NotFail(sjson.MarshalSingleValue(v)))})
			}

			continue
		}

		column := sortColumn(k)

		if _, ok := v.(string); ok {
			exact = append(exact, fmt.Sprintf(`%s = ?`, column))
			arrays = append(arrays, arrayText(column))
			exactArgs = append(exactArgs, []any{v})

			continue
		}

		if values := inValues(v); values != nil {
			exact = append(exact, fmt.Sprintf(`%s IN (%s)`, column, strings.TrimSuffix(strings.Repeat("?, ", len(values)), ", ")))
			arrays = append(arrays, arrayText(column))
			exactArgs = append(exactArgs, values)
		}
	}

	if len(exact) == 0 {
		return "", nil
	}

	// A row meeting every condition meets all exactly, or its first inexact one by an array after exact ones: one
	// term each, every term led by the first condition's field, so SQLite searches an index for each (MULTI-INDEX OR).
	var terms []string
	var args []any

	for i := range exact {
		if arrays[i] == "" {
			continue
		}

		terms = append(terms, strings.Join(append(append([]string{}, exact[:i]...), arrays[i]), " AND "))

		for _, a := range exactArgs[:i] {
			args = append(args, a...)
		}
	}

	terms = append(terms, strings.Join(exact, " AND "))

	for _, a := range exactArgs {
		args = append(args, a...)
	}

	return " WHERE (" + strings.Join(terms, ") OR (") + ")", args
}

// pushableID is an _id whose JSON text is the same for every stored value MongoDB calls equal to it: a string, an
// ObjectId, or a non-zero number written without a fraction (int32, int64 and whole doubles below 1e21 all print
// as digits). Zero is left out (a stored -0.0 prints "-0"), as are fractions, NaN and the infinities.
func pushableID(v any) bool {
	switch n := v.(type) {
	case string, types.ObjectID:
		return true
	case int32:
		return n != 0
	case int64:
		return n != 0
	case float64:
		return n != 0 && n == math.Trunc(n) && math.Abs(n) < 1e21
	default:
		return false
	}
}

// inValues are the SQL values of a {$in: [...]} of strings and numbers (a field's SQL value equals the ones MongoDB
// calls equal to it, and a date's milliseconds too, which FerretDB filters out), or nil for any other value.
func inValues(v any) []any {
	operators, ok := v.(*types.Document)
	if !ok || operators.Len() != 1 || operators.Keys()[0] != "$in" {
		return nil
	}

	list, ok := must.NotFail(operators.Get("$in")).(*types.Array)
	if !ok || list.Len() == 0 || list.Len() > maxInValues {
		return nil
	}

	values := make([]any, 0, list.Len())

	for i := 0; i < list.Len(); i++ {
		switch value := must.NotFail(list.Get(i)).(type) {
		case string, int32, int64:
			values = append(values, value)
		case float64:
			if math.IsNaN(value) || math.IsInf(value, 0) {
				return nil
			}

			values = append(values, value)
		default:
			return nil
		}
	}

	return values
}

// maxInValues keeps a pushed-down `$in` well below SQLite's limit on bound parameters.
const maxInValues = 1000
