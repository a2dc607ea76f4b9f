// Added to FerretDB 1.24's handler by `npm run provision` (src/infra/provision.ts). Its update and findAndModify kept
// their SQLite read open through their write (its delete closes it first), so with writes back to back some read was
// always open on the write-ahead log: SQLite never restarted the log, and it grew by every write until the load
// paused (about 7 MB/s under a loop of updates; docs/embedded-store.md). These handlers now read their documents,
// close the read, then write. The document locks (collection_locks.go) still hold from the read to the write.
package handler

import (
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
)

// readBeforeWrite reads what iter yields and closes it, which closes the query under it and ends SQLite's read
// transaction: the documents, as an iterator the closer closes.
func readBeforeWrite(iter types.DocumentsIterator, closer *iterator.MultiCloser) (types.DocumentsIterator, error) {
	docs, err := iterator.ConsumeValues(iter)
	if err != nil {
		return nil, err
	}

	res := iterator.Values(iterator.ForSlice(docs))
	closer.Add(res)

	return res, nil
}
