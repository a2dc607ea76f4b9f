// Added to FerretDB 1.24's SQLite backend by `npm run provision` (src/infra/provision.ts).
//
// FerretDB 1.24 hands SQLite a WHERE clause only for a filter that is exactly {_id: <string or
// ObjectId>}; every other filter reads the whole collection into FerretDB and filters there, so
// listing one account's endpoints cost a read of every account's endpoints (117 lists/s with 200
// endpoints in the collection). This hands SQLite the filter's top-level equalities on strings
// as well, on the same expressions the collection's indexes are built on, so that SQLite can
// answer them from an index.
//
// Pushdown must only ever narrow to a superset of the matches: FerretDB filters every document
// SQLite returns again, with the full MongoDB semantics. So a field other than _id also matches
// when it holds an array (in MongoDB {f: "x"} matches f: ["x", ...]); that branch is an index range
// too (the JSON text of an array starts with '['), which SQLite unions with the equality
// (MULTI-INDEX OR).
package sqlite

import (
	"fmt"
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
			switch v.(type) {
			case string, types.ObjectID:
				conditions = append(conditions, fmt.Sprintf(`%s = ?`, metadata.IDColumn))
				args = append(args, string(must.NotFail(sjson.MarshalSingleValue(v))))
			}

			continue
		}

		if _, ok := v.(string); !ok {
			continue
		}

		column := fmt.Sprintf(`%s->%q`, metadata.DefaultColumn, k)
		conditions = append(conditions, fmt.Sprintf(`(%[1]s = ? OR (%[1]s >= '[' AND %[1]s < char(92)))`, column))
		args = append(args, string(must.NotFail(sjson.MarshalSingleValue(v))))
	}

	if len(conditions) == 0 {
		return "", nil
	}

	return " WHERE " + strings.Join(conditions, " AND "), args
}
