// Added to FerretDB 1.24's SQLite backend by `npm run provision` (src/infra/provision.ts). The TTL monitor
// (ttl_monitor.go) reads a collection for {<field>: {$lte: <date>}}, which FerretDB would answer by decoding every
// document; a date is stored as its milliseconds, a JSON number, so SQLite walks the TTL index up to the cutoff and
// returns arrays' JSON text beside (an array may hold a date), a superset that FerretDB filters as before.
package sqlite

import (
	"fmt"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// dateRangePushdown returns the WHERE clause (with its leading space) and argument for a filter that is exactly
// {<plain top-level field other than _id>: {$lte: <date>}}, or "" for any other filter.
func dateRangePushdown(filter *types.Document) (string, []any) {
	if filter.Len() != 1 {
		return "", nil
	}

	field := filter.Keys()[0]
	if field == "_id" || !pushableField.MatchString(field) {
		return "", nil
	}

	operators, ok := must.NotFail(filter.Get(field)).(*types.Document)
	if !ok || operators.Len() != 1 || operators.Keys()[0] != "$lte" {
		return "", nil
	}

	cutoff, ok := must.NotFail(operators.Get("$lte")).(time.Time)
	if !ok {
		return "", nil
	}

	column := sortColumn(field)

	return fmt.Sprintf(" WHERE (%s <= ? OR %s)", column, arrayText(column)), []any{cutoff.UnixMilli()}
}
