// Added to FerretDB 1.24's SQLite backend by `npm run provision` (src/infra/provision.ts). FerretDB sorts and limits
// in memory once a query has a filter, so "an account's newest n" decoded every document of the account; this lets
// SQLite walk an index on {<equality field>, <sort field>} in sort order and stop at the limit (docs/embedded-store.md#indexes).
//
// SQLite's order and a limit may only be trusted where SQLite's answer is exact: the walk keeps only documents whose
// equality field is a string and whose sort field is a number (the `$s` schema says which), so SQLite's numeric
// order is MongoDB's. Every other document the filter could match (an array in either field) is returned beside the
// walk's rows, and FerretDB filters, sorts and limits them all as before.
package sqlite

import (
	"fmt"
	"math"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// rangeOperators are the comparisons on the sort field that SQLite evaluates as MongoDB does on numbers.
var rangeOperators = map[string]string{"$lt": "<", "$lte": "<=", "$gt": ">", "$gte": ">="}

// indexedSortQuery returns the query (after selectClause) and its arguments for a find whose filter is exactly one
// top-level string equality and a numeric range on the field it sorts by, with a limit; "" for any other find.
func indexedSortQuery(selectClause string, params *backends.QueryParams) (string, []any) {
	if params.FieldLimit <= 0 || params.FieldSort.Len() != 1 || params.Filter.Len() != 2 {
		return "", nil
	}

	sortField := params.FieldSort.Keys()[0]
	direction, ok := must.NotFail(params.FieldSort.Get(sortField)).(int64)
	if !ok || !pushableField.MatchString(sortField) || sortField == "_id" {
		return "", nil
	}

	var equalityField, equalityValue string
	var ranges []string
	var rangeArgs []any

	for _, k := range params.Filter.Keys() {
		v := must.NotFail(params.Filter.Get(k))

		switch {
		case k == sortField:
			if ranges, rangeArgs = numericRange(sortColumn(k), v); ranges == nil {
				return "", nil
			}
		case pushableField.MatchString(k) && k != "_id":
			s, isString := v.(string)
			if !isString {
				return "", nil
			}

			equalityField, equalityValue = k, s
		default:
			return "", nil
		}
	}

	if equalityField == "" || ranges == nil {
		return "", nil
	}

	order := " DESC"
	if direction == 1 {
		order = ""
	}

	equality, sorted := sortColumn(equalityField), sortColumn(sortField)
	exact := fmt.Sprintf(
		"%s = ? AND %s AND %s = 'string' AND %s IN ('int', 'long', 'double') ORDER BY %s%s LIMIT ?",
		equality, strings.Join(ranges, " AND "), schemaType(equalityField), schemaType(sortField), sorted, order,
	)
	args := append(append([]any{equalityValue}, rangeArgs...), params.FieldLimit, equalityValue)

	q := "SELECT * FROM (" + selectClause + " WHERE " + exact + ")" +
		" UNION " + selectClause + " WHERE " + equality + " = ? AND " + arrayText(sorted) +
		" UNION " + selectClause + " WHERE " + arrayText(equality)

	return q, args
}

// sortColumn is the SQL value of a top-level field, the expression its index is built on.
func sortColumn(field string) string {
	return fmt.Sprintf(`%s->>%q`, metadata.DefaultColumn, field)
}

// schemaType is the field's BSON type as the document's `$s` schema records it ("string", "int", "date", ...).
func schemaType(field string) string {
	return fmt.Sprintf(`%s->>'$."$s".p.%q.t'`, metadata.DefaultColumn, field)
}

// arrayText is true for an array's JSON text (and for strings that start with '[', which FerretDB filters out).
func arrayText(column string) string {
	return fmt.Sprintf(`(%[1]s >= '[' AND %[1]s < char(92))`, column)
}

// numericRange returns the conditions and arguments for an operator document of $lt/$lte/$gt/$gte on numbers, or nil.
func numericRange(column string, v any) ([]string, []any) {
	operators, ok := v.(*types.Document)
	if !ok || operators.Len() == 0 {
		return nil, nil
	}

	var conditions []string
	var args []any

	for _, op := range operators.Keys() {
		sqlOp, known := rangeOperators[op]
		if !known {
			return nil, nil
		}

		switch bound := must.NotFail(operators.Get(op)).(type) {
		case int32:
			args = append(args, int64(bound))
		case int64:
			args = append(args, bound)
		case float64:
			if math.IsNaN(bound) {
				return nil, nil
			}

			args = append(args, bound)
		default:
			return nil, nil
		}

		conditions = append(conditions, fmt.Sprintf("%s %s ?", column, sqlOp))
	}

	return conditions, args
}
