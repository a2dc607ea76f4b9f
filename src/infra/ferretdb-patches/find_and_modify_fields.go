// Added to FerretDB 1.24's handler by `npm run provision` (src/infra/provision.ts). FerretDB refused findAndModify's
// `fields` as not implemented; MongoDB answers the document through that projection
// (https://www.mongodb.com/docs/manual/reference/command/findAndModify/), so the driver's `projection` option of
// findOneAndUpdate / findOneAndDelete works on both stores.
package handler

import (
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// findAndModifyFields is the command's projection, validated before anything is written (as MongoDB refuses a bad one
// without writing): nil for none.
type findAndModifyFields struct {
	projection *types.Document
	inclusion  bool
}

func newFindAndModifyFields(fields *types.Document) (*findAndModifyFields, error) {
	if fields == nil {
		return nil, nil
	}

	projection, inclusion, err := common.ValidateProjection(fields)
	if err != nil {
		return nil, err
	}

	return &findAndModifyFields{projection: projection, inclusion: inclusion}, nil
}

// apply is the answer's `value` through the projection; null (nothing matched) stays null.
func (f *findAndModifyFields) apply(value any, filter *types.Document) (any, error) {
	doc, ok := value.(*types.Document)
	if f == nil || !ok {
		return value, nil
	}

	projected, err := common.ProjectDocument(doc, f.projection, filter, f.inclusion)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	return projected, nil
}
