// Added to FerretDB 1.24's handlers by `npm run provision` (src/infra/provision.ts). FerretDB refused the
// `expireAfterSeconds` index option (NotImplemented); this takes it as MongoDB does: on a single-field index other
// than _id's, a whole number of seconds from 0 to 2^31-1, stored with the index and reported by listIndexes. The
// monitor that deletes what has expired is in ttl_monitor.go.
package handler

import (
	"fmt"
	"math"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/handlererrors"
	"github.com/FerretDB/FerretDB/internal/handler/handlerparams"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// ttlIndexOption is the index's expireAfterSeconds, refused as MongoDB refuses it (CannotCreateIndex, or
// InvalidIndexSpecificationOption on _id's index); a fraction is dropped, as MongoDB keeps whole seconds.
func ttlIndexOption(command string, indexDoc *types.Document, key []backends.IndexKeyPair) (*int64, error) {
	spec := types.FormatAnyValue(indexDoc)

	if len(key) == 1 && key[0].Field == "_id" {
		return nil, handlererrors.NewCommandErrorMsgWithArgument(
			handlererrors.ErrInvalidIndexSpecificationOption,
			fmt.Sprintf("The field 'expireAfterSeconds' is not valid for an _id index specification. Specification: %s", spec),
			command,
		)
	}

	if len(key) != 1 {
		return nil, handlererrors.NewCommandErrorMsgWithArgument(
			handlererrors.ErrCannotCreateIndex,
			fmt.Sprintf("TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: %s", spec),
			command,
		)
	}

	var seconds float64

	switch v := must.NotFail(indexDoc.Get("expireAfterSeconds")).(type) {
	case int32:
		seconds = float64(v)
	case int64:
		seconds = float64(v)
	case float64:
		seconds = math.Trunc(v)
	default:
		return nil, handlererrors.NewCommandErrorMsgWithArgument(
			handlererrors.ErrCannotCreateIndex,
			fmt.Sprintf("TTL index 'expireAfterSeconds' option must be numeric, but received a type of '%s'. Index spec: %s", handlerparams.AliasFromType(v), spec),
			command,
		)
	}

	if math.IsNaN(seconds) || seconds < 0 || seconds > math.MaxInt32 {
		return nil, handlererrors.NewCommandErrorMsgWithArgument(
			handlererrors.ErrCannotCreateIndex,
			fmt.Sprintf("TTL index 'expireAfterSeconds' option must be within an acceptable range [0, %d]. Index spec: %s", math.MaxInt32, spec),
			command,
		)
	}

	s := int64(seconds)

	return &s, nil
}

// checkTTLConflicts refuses an index that exists under the same name and key with another expireAfterSeconds (or
// none), as MongoDB does; FerretDB would take it for the existing index and answer "all indexes already exist".
func checkTTLConflicts(command string, existing, toCreate []backends.IndexInfo) error {
	for _, newIdx := range toCreate {
		for _, old := range existing {
			if old.Name != newIdx.Name || formatIndexKey(old.Key) != formatIndexKey(newIdx.Key) {
				continue
			}

			if (old.ExpireAfterSeconds == nil) != (newIdx.ExpireAfterSeconds == nil) ||
				(old.ExpireAfterSeconds != nil && *old.ExpireAfterSeconds != *newIdx.ExpireAfterSeconds) {
				return handlererrors.NewCommandErrorMsgWithArgument(
					handlererrors.ErrIndexOptionsConflict,
					fmt.Sprintf("An equivalent index already exists with the same name but different options. Requested index: %s", newIdx.Name),
					command,
				)
			}
		}
	}

	return nil
}
