// Added to FerretDB 1.24's SQLite backend by `npm run provision` (src/infra/provision.ts). FerretDB hands SQLite a
// filter only when it is exactly {_id}, else scans (117 endpoint lists/s with 200 stored); this hands it the top-level
// string equalities too, on the SQL values the indexes are built on, and an integer _id (docs/embedded-store.md#indexes).
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
// top-level equalities on strings (and ObjectIds for _id), or "" when it has none.
func equalityPushdown(filter *types.Document) (string, []any) {
	if filter == nil {
		return "", nil
	}

	var conditions []string
	var args []any

	for _, k := range filter.Keys() {
		if !pushableField.MatchString(k) {
			continue
		}

		v := must.NotFail(filter.Get(k))

		if k == "_id" {
			if pushableID(v) {
				conditions = append(conditions, fmt.Sprintf(`%s = ?`, metadata.IDColumn))
				args = append(args, string(must.NotFail(sjson.MarshalSingleValue(v))))
			}

			continue
		}

		if _, ok := v.(string); !ok {
			continue
		}

		column := sortColumn(k)
		conditions = append(conditions, fmt.Sprintf(`(%s = ? OR %s)`, column, arrayText(column)))
		args = append(args, v)
	}

	if len(conditions) == 0 {
		return "", nil
	}

	return " WHERE " + strings.Join(conditions, " AND "), args
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
