// Added to FerretDB 1.24's handlers by `npm run provision` (src/infra/provision.ts). Its update, findAndModify
// and delete read the matching documents, then write them: two clients could both read a counter at 5 and both
// write 6, both claim the one document whose owner was null, or both find no document and both insert it.
// MongoDB keeps each document's write atomic; this keeps it by holding one lock per collection from the read to
// the write in those handlers, and in insert (an upsert's "no such document" must still hold when its insert lands).
// Reads elsewhere (find, count, aggregate) take no lock and run beside the writers (SQLite's WAL).
package handler

import "sync"

// collectionLocks holds one *sync.Mutex per "db.collection"; it grows with the namespaces written.
var collectionLocks sync.Map

// lockCollection locks the collection's read-modify-write lock and returns its unlock.
func lockCollection(db, collection string) func() {
	mu, _ := collectionLocks.LoadOrStore(db+"."+collection, new(sync.Mutex))
	m := mu.(*sync.Mutex)
	m.Lock()

	return m.Unlock
}
