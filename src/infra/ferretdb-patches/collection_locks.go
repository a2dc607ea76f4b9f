// Added to FerretDB 1.24's handlers by `npm run provision` (src/infra/provision.ts). Its update, findAndModify
// and delete read the matching documents, then write them: two clients could both read a counter at 5 and both
// write 6, both claim the one document whose owner was null, or both find no document and both insert it.
// MongoDB keeps each document's write atomic; these locks keep it here, held from the read to the write.
//
// A write whose filter names one string or ObjectId `_id` (the common case) locks that document only, under a
// shared hold of its collection; any other filter, and a command of several statements, holds the collection
// alone. Inserts lock the string and ObjectId `_id`s they write, so an upsert's "no such document" still holds
// when its insert lands. Other `_id` types are not keyed (1, 1.0 and int64 1 are one `_id` to MongoDB): a filter
// on one holds the collection. Reads elsewhere (find, count, aggregate) take no lock and run beside the writers.
package handler

import (
	"slices"
	"sync"

	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
)

// writeLocks is the collection-wide lock of each "db.collection"; it grows with the namespaces written.
var writeLocks sync.Map

// documentLocks holds a mutex for each document key in use, removed when its last holder leaves.
var documentLocks = struct {
	sync.Mutex
	m map[string]*documentLock
}{m: map[string]*documentLock{}}

type documentLock struct {
	sync.Mutex
	holders int
}

// lockForWrite locks what a command with these filters may write; it returns the unlock.
func lockForWrite(db, collection string, filters ...*types.Document) func() {
	namespace := db + "." + collection
	if len(filters) == 1 {
		if key, ok := documentKey(filters[0]); ok {
			return lockDocuments(namespace, []string{key})
		}
	}

	rw := collectionLock(namespace)
	rw.Lock()

	return rw.Unlock
}

func updateFilters(updates []common.Update) []*types.Document {
	filters := make([]*types.Document, len(updates))
	for i := range updates {
		filters[i] = updates[i].Filter
	}

	return filters
}

func deleteFilters(deletes []common.Delete) []*types.Document {
	filters := make([]*types.Document, len(deletes))
	for i := range deletes {
		filters[i] = deletes[i].Filter
	}

	return filters
}

// lockForInsert locks the keyed `_id`s of docs (documents without `_id` get a new ObjectId: nobody else has it).
func lockForInsert(db, collection string, docs *types.Array) func() {
	var keys []string

	iter := docs.Iterator()
	defer iter.Close()

	for {
		_, v, err := iter.Next()
		if err != nil {
			break
		}

		if doc, ok := v.(*types.Document); ok {
			if key, ok := idKey(doc); ok {
				keys = append(keys, key)
			}
		}
	}

	return lockDocuments(db+"."+collection, keys)
}

// lockDocuments holds the collection shared, then each key's lock in sorted order (so two holders never wait on each other).
func lockDocuments(namespace string, keys []string) func() {
	rw := collectionLock(namespace)
	rw.RLock()

	slices.Sort(keys)
	keys = slices.Compact(keys)

	held := make([]*documentLock, len(keys))
	for i, key := range keys {
		held[i] = acquireDocument(namespace + "\x00" + key)
	}

	return func() {
		for i := len(keys) - 1; i >= 0; i-- {
			releaseDocument(namespace+"\x00"+keys[i], held[i])
		}

		rw.RUnlock()
	}
}

func collectionLock(namespace string) *sync.RWMutex {
	rw, _ := writeLocks.LoadOrStore(namespace, new(sync.RWMutex))
	return rw.(*sync.RWMutex)
}

func acquireDocument(key string) *documentLock {
	documentLocks.Lock()
	l := documentLocks.m[key]
	if l == nil {
		l = new(documentLock)
		documentLocks.m[key] = l
	}
	l.holders++
	documentLocks.Unlock()

	l.Lock()

	return l
}

func releaseDocument(key string, l *documentLock) {
	l.Unlock()

	documentLocks.Lock()
	l.holders--
	if l.holders == 0 {
		delete(documentLocks.m, key)
	}
	documentLocks.Unlock()
}

// documentKey is the key of the one document a filter can match when its `_id` is a string or an ObjectId.
func documentKey(filter *types.Document) (string, bool) {
	if filter == nil {
		return "", false
	}

	return idKey(filter)
}

// idKey keys a string or ObjectId `_id`, each type apart (a string never equals an ObjectId).
func idKey(doc *types.Document) (string, bool) {
	v, err := doc.Get("_id")
	if err != nil {
		return "", false
	}

	switch id := v.(type) {
	case string:
		return "s" + id, true
	case types.ObjectID:
		return "o" + string(id[:]), true
	default:
		return "", false
	}
}
