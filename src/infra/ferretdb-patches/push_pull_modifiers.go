// Added to FerretDB 1.24's update operators by `npm run provision` (src/infra/provision.ts). FerretDB's `$push`
// appended `$each` and silently ignored `$slice`, `$position` and `$sort`, and its `$pull` removed only elements
// equal to the value given; this applies the modifiers and the conditions as MongoDB does
// (https://www.mongodb.com/docs/manual/reference/operator/update/push/, .../pull/), and refuses what it does not know.
package common

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/FerretDB/FerretDB/internal/handler/handlererrors"
	"github.com/FerretDB/FerretDB/internal/handler/handlerparams"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// pushModifiers is a parsed `{$each, $slice, $position, $sort}`; nil pointers are absent clauses.
type pushModifiers struct {
	each      *types.Array
	slice     *int64
	position  *int64
	sortWhole types.SortType // 1 or -1 when `$sort` orders whole elements
	sortBy    *types.Document
}

// processPushWithModifiers is `$push`: a value that is not a document with `$each` is pushed as it is (MongoDB's rule),
// so it keeps FerretDB's own code; `$each` with any other clause is applied here.
func processPushWithModifiers(command string, doc *types.Document, key string, pushVal any) (bool, error) {
	pushDoc, ok := pushVal.(*types.Document)
	if !ok || !pushDoc.Has("$each") || pushDoc.Len() == 1 {
		return processPushArrayUpdateExpression(command, doc, key, pushVal)
	}

	mods, err := parsePushModifiers(command, pushDoc)
	if err != nil {
		return false, err
	}

	path, err := types.NewPathFromString(key)
	if err != nil {
		return false, lazyerrors.Error(err)
	}

	existed := doc.HasByPath(path)

	// FerretDB's own code with nothing to add: it creates a missing array and refuses a field that is not one.
	if _, err = processPushArrayUpdateExpression(command, doc, key, must.NotFail(types.NewDocument("$each", types.MakeArray(0)))); err != nil {
		return false, err
	}

	array := must.NotFail(doc.GetByPath(path)).(*types.Array)
	before := array.DeepCopy()

	values := make([]any, 0, array.Len()+mods.each.Len())
	for i := range array.Len() {
		values = append(values, must.NotFail(array.Get(i)))
	}

	values = insertAt(values, mods.each, mods.position)

	if mods.sortWhole != 0 || mods.sortBy != nil {
		if values, err = sortPushed(command, values, mods); err != nil {
			return false, err
		}
	}

	if mods.slice != nil {
		values = sliced(values, *mods.slice)
	}

	result, err := types.NewArray(values...)
	if err != nil {
		return false, lazyerrors.Error(err)
	}

	if err = doc.SetByPath(path, result); err != nil {
		return false, lazyerrors.Error(err)
	}

	return !existed || !types.Identical(before, result), nil
}

// parsePushModifiers validates the clauses beside `$each` with MongoDB's messages; an unknown clause is refused, not ignored.
func parsePushModifiers(command string, pushDoc *types.Document) (*pushModifiers, error) {
	badValue := func(format string, args ...any) error {
		return NewUpdateError(handlererrors.ErrBadValue, fmt.Sprintf(format, args...), command)
	}

	if dup, ok := pushDoc.FindDuplicateKey(); ok {
		return nil, badValue("Only one %s is supported.", dup)
	}

	var mods pushModifiers

	for _, clause := range pushDoc.Keys() {
		value := must.NotFail(pushDoc.Get(clause))

		switch clause {
		case "$each":
			each, ok := value.(*types.Array)
			if !ok {
				return nil, badValue("The argument to $each in $push must be an array but it was of type: %s", handlerparams.AliasFromType(value))
			}

			mods.each = each

		case "$slice", "$position":
			n, err := handlerparams.GetWholeNumberParam(value)
			if err != nil {
				return nil, badValue("The value for %s must be an integer value but was given type: %s", clause, handlerparams.AliasFromType(value))
			}

			if clause == "$slice" {
				mods.slice = &n
			} else {
				mods.position = &n
			}

		case "$sort":
			if sortBy, ok := value.(*types.Document); ok {
				if err := validatePushSortPattern(command, sortBy); err != nil {
					return nil, err
				}

				mods.sortBy = sortBy

				continue
			}

			n, err := handlerparams.GetWholeNumberParam(value)

			switch {
			case err == nil && (n == 1 || n == -1):
				mods.sortWhole = types.SortType(n)
			case errors.Is(err, handlerparams.ErrUnexpectedType):
				return nil, badValue("The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields")
			default:
				return nil, badValue("The $sort element value must be either 1 or -1")
			}

		default:
			return nil, badValue("Unrecognized clause in $push: %s", clause)
		}
	}

	return &mods, nil
}

// validatePushSortPattern accepts `{<path>: 1 | -1, ...}`, at least one field.
func validatePushSortPattern(command string, sortBy *types.Document) error {
	if sortBy.Len() == 0 {
		return NewUpdateError(handlererrors.ErrBadValue, "The $sort pattern is empty when it should be a set of fields.", command)
	}

	for _, field := range sortBy.Keys() {
		n, err := handlerparams.GetWholeNumberParam(must.NotFail(sortBy.Get(field)))
		if err != nil || (n != 1 && n != -1) {
			return NewUpdateError(handlererrors.ErrBadValue, "The $sort element value must be either 1 or -1", command)
		}

		if _, err = types.NewPathFromString(field); err != nil || strings.HasPrefix(field, "$") {
			return NewUpdateError(handlererrors.ErrBadValue, fmt.Sprintf("The $sort field is invalid: %s", field), command)
		}
	}

	return nil
}

// insertAt inserts each's elements at `position` (MongoDB's: past the end appends, a negative one counts from the end,
// beyond the start inserts first); no position appends.
func insertAt(values []any, each *types.Array, position *int64) []any {
	n := int64(len(values))
	at := n

	if position != nil {
		switch p := *position; {
		case p >= 0:
			at = min(p, n)
		default:
			at = max(n+p, 0)
		}
	}

	added := make([]any, 0, each.Len())
	for i := range each.Len() {
		added = append(added, must.NotFail(each.Get(i)))
	}

	out := make([]any, 0, len(values)+len(added))
	out = append(out, values[:at]...)
	out = append(out, added...)

	return append(out, values[at:]...)
}

// sortPushed orders whole elements by MongoDB's comparison of values, or by the pattern's fields of each element (null
// when missing or not a document). A pattern field holding an array is refused: MongoDB compares the array itself
// there, FerretDB's sort compares its smallest or largest element.
func sortPushed(command string, values []any, mods *pushModifiers) ([]any, error) {
	if mods.sortWhole != 0 {
		sort.SliceStable(values, func(i, j int) bool {
			return types.CompareOrderForSort(values[i], values[j], mods.sortWhole) == types.Less
		})

		return values, nil
	}

	fields := mods.sortBy.Keys()
	paths := make([]types.Path, len(fields))
	orders := make([]types.SortType, len(fields))

	for i, field := range fields {
		paths[i] = must.NotFail(types.NewPathFromString(field))
		orders[i] = types.SortType(must.NotFail(handlerparams.GetWholeNumberParam(must.NotFail(mods.sortBy.Get(field)))))
	}

	keys := make([][]any, len(values))

	for i, v := range values {
		keys[i] = make([]any, len(paths))

		for f, path := range paths {
			key := any(types.Null)

			if d, ok := v.(*types.Document); ok {
				if got, err := d.GetByPath(path); err == nil {
					key = got
				}
			}

			if _, ok := key.(*types.Array); ok {
				return nil, NewUpdateError(
					handlererrors.ErrNotImplemented,
					fmt.Sprintf("$push $sort by %s: the field holds an array, which is not supported", fields[f]),
					command,
				)
			}

			keys[i][f] = key
		}
	}

	order := make([]int, len(values))
	for i := range order {
		order[i] = i
	}

	sort.SliceStable(order, func(a, b int) bool {
		for f := range paths {
			switch types.CompareOrderForSort(keys[order[a]][f], keys[order[b]][f], orders[f]) {
			case types.Less:
				return true
			case types.Greater:
				return false
			}
		}

		return false
	})

	out := make([]any, len(values))
	for i, idx := range order {
		out[i] = values[idx]
	}

	return out, nil
}

// sliced keeps the first n elements, or the last -n when n is negative.
func sliced(values []any, n int64) []any {
	switch {
	case n >= 0 && int64(len(values)) > n:
		return values[:n]
	case n < 0 && int64(len(values)) > -n:
		return values[int64(len(values))+n:]
	default:
		return values
	}
}

// pathAcceptingOperators are the query operators MongoDB's `$pull` applies to each element itself
// (`{$pull: {xs: {$lte: 5}}}`); a document led by anything else is a query on the fields of document elements.
var pathAcceptingOperators = map[string]bool{
	"$eq": true, "$ne": true, "$gt": true, "$gte": true, "$lt": true, "$lte": true, "$in": true, "$nin": true,
	"$exists": true, "$type": true, "$all": true, "$elemMatch": true, "$size": true, "$regex": true, "$options": true,
	"$mod": true, "$not": true, "$bitsAllClear": true, "$bitsAllSet": true, "$bitsAnyClear": true, "$bitsAnySet": true,
	"$near": true, "$nearSphere": true, "$geoWithin": true, "$geoIntersects": true, "$within": true,
}

// pulledElementKey wraps a scalar element and its condition into one-field documents for FerretDB's query matcher.
const pulledElementKey = "element"

// processPullWithCondition is `$pull`: a document value is a condition, each element removed where it matches (an
// operator expression applies to the element itself, any other document is a query on a document element's fields),
// a regular expression matches strings; any other value is removed where equal, by FerretDB's own code.
func processPullWithCondition(command string, doc *types.Document, key string, pullVal any) (bool, error) {
	var matches func(elem any) (bool, error)

	switch cond := pullVal.(type) {
	case *types.Document:
		if cond.Len() > 0 && pathAcceptingOperators[cond.Keys()[0]] {
			wrapped := must.NotFail(types.NewDocument(pulledElementKey, cond))
			matches = func(elem any) (bool, error) {
				return FilterDocument(must.NotFail(types.NewDocument(pulledElementKey, elem)), wrapped)
			}
		} else {
			matches = func(elem any) (bool, error) {
				d, ok := elem.(*types.Document)
				if !ok {
					return false, nil
				}

				return FilterDocument(d, cond)
			}
		}

	case types.Regex:
		wrapped := must.NotFail(types.NewDocument(pulledElementKey, cond))
		matches = func(elem any) (bool, error) {
			return FilterDocument(must.NotFail(types.NewDocument(pulledElementKey, elem)), wrapped)
		}

	default:
		return processPullArrayUpdateExpression(command, doc, key, pullVal)
	}

	// A condition MongoDB cannot parse fails whatever the array holds (or if it is missing).
	if _, err := matches(types.MakeDocument(0)); err != nil {
		return false, pullConditionError(command, err)
	}

	path, err := types.NewPathFromString(key)
	if err != nil {
		return false, lazyerrors.Error(err)
	}

	if !doc.HasByPath(path) {
		return false, checkUnsuitableValueError(command, doc, key, path)
	}

	array, ok := must.NotFail(doc.GetByPath(path)).(*types.Array)
	if !ok {
		return false, NewUpdateError(handlererrors.ErrBadValue, "Cannot apply $pull to a non-array value", command)
	}

	var changed bool

	for i := array.Len() - 1; i >= 0; i-- {
		hit, err := matches(must.NotFail(array.Get(i)))
		if err != nil {
			return false, pullConditionError(command, err)
		}

		if hit {
			array.Remove(i)
			changed = true
		}
	}

	if err = doc.SetByPath(path, array); err != nil {
		return false, lazyerrors.Error(err)
	}

	return changed, nil
}

// pullConditionError keeps the matcher's own error (its code and message) and answers anything else as a bad value.
func pullConditionError(command string, err error) error {
	var commandErr *handlererrors.CommandError
	var writeErr *handlererrors.WriteErrors
	if errors.As(err, &commandErr) || errors.As(err, &writeErr) {
		return err
	}

	return NewUpdateError(handlererrors.ErrBadValue, fmt.Sprintf("$pull condition: %v", err), command)
}
