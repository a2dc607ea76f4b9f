// Added to FerretDB 1.24's handlers by `npm run provision` (src/infra/provision.ts). MongoDB's TTL monitor: every
// FERRETDB_TTL_MONITOR_SLEEP_SECS (MongoDB's ttlMonitorSleepSecs, 60 by default) it deletes each document whose TTL
// index field is a date, or an array holding a date, at or before now minus the index's expireAfterSeconds; a
// missing field or any other value stays. serverStatus reports metrics.ttl.passes and deletedDocuments, as MongoDB's.
//
// Its scan of a top-level field asks for {<field>: {$lte: <cutoff>}}, which SQLite answers from the TTL index
// (ttl_pushdown.go); a dotted path reads the whole collection.
//
// The store takes one SQLite writer at a time and a write blocks every other, so the monitor deletes in commands of
// ttlDeleteBatch documents, each under the write locks of collection_locks.go, after reading each document again:
// one rewritten since the scan (an idempotency key's successor record, a session extended) stays.
//
// With FERRETDB_ENABLE_TEST_COMMANDS=1 (as MongoDB's enableTestCommands), the command
// {configureFailPoint: "hangTTLMonitorBeforeDeletes", mode: "alwaysOn" | "off", data: {ns: "<db>.<collection>"}}
// holds the monitor after its scan of that collection found expired documents and before it deletes them, so a test
// can write between the two; it answers {count}: how often the monitor has been held there since the fail point was
// set on that collection. Several collections can be held at once (test files run side by side).
package handler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/FerretDB/wire"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/clientconn/conninfo"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/handler/handlererrors"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/logging"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

const (
	// ttlDeleteBatch documents per delete command: a longer one holds the store's one writer from everyone else.
	ttlDeleteBatch = 20

	// ttlScanLimit expired ids held per scan: after a long stop much expires at once, and memory stays bounded.
	ttlScanLimit = 1000

	ttlFailPointName = "hangTTLMonitorBeforeDeletes"
)

var ttlMetrics struct {
	passes  atomic.Int64
	deleted atomic.Int64
}

// ttlFailPoint holds, for each collection the fail point is set on, how often the monitor has been held there.
var ttlFailPoint = struct {
	sync.Mutex
	entered map[string]int64
}{entered: map[string]int64{}}

// initTTL starts the TTL monitor (stopped by Close) and, for tests, the fail point's command.
func (h *Handler) initTTL() {
	if os.Getenv("FERRETDB_ENABLE_TEST_COMMANDS") == "1" {
		h.commands["configureFailPoint"] = &command{Handler: h.msgConfigureFailPoint}
	}

	sleep := 60 * time.Second
	if s, err := strconv.Atoi(os.Getenv("FERRETDB_TTL_MONITOR_SLEEP_SECS")); err == nil && s > 0 {
		sleep = time.Duration(s) * time.Second
	}

	ctx, cancel := context.WithCancel(context.Background())

	info := conninfo.New()
	info.SetBypassBackendAuth()
	ctx = conninfo.Ctx(ctx, info)

	h.wg.Add(1)

	go func() {
		defer h.wg.Done()

		<-h.cappedCleanupStop
		cancel()
	}()

	h.wg.Add(1)

	go func() {
		defer h.wg.Done()

		for {
			select {
			case <-time.After(sleep):
			case <-ctx.Done():
				return
			}

			h.ttlPass(ctx)
		}
	}()
}

// ttlPass deletes what has expired in every collection with a TTL index; a collection that fails is tried next pass.
func (h *Handler) ttlPass(ctx context.Context) {
	l := logging.WithName(h.L, "ttl")

	dbs, err := h.b.ListDatabases(ctx, nil)
	if err != nil {
		l.ErrorContext(ctx, "TTL monitor: listing databases failed", logging.Error(err))
		return
	}

	for _, dbInfo := range dbs.Databases {
		db, err := h.b.Database(dbInfo.Name)
		if err != nil {
			continue
		}

		colls, err := db.ListCollections(ctx, nil)
		if err != nil {
			continue // dropped meanwhile
		}

		for _, cInfo := range colls.Collections {
			coll, err := db.Collection(cInfo.Name)
			if err != nil {
				continue
			}

			indexes, err := coll.ListIndexes(ctx, nil)
			if err != nil {
				continue
			}

			for _, index := range indexes.Indexes {
				if index.ExpireAfterSeconds == nil || len(index.Key) != 1 {
					continue
				}

				path, err := types.NewPathFromString(index.Key[0].Field)
				if err != nil {
					continue
				}

				ns := dbInfo.Name + "." + cInfo.Name
				expiry := ttlExpiry{path: path, after: time.Duration(*index.ExpireAfterSeconds) * time.Second}

				if err = h.ttlExpire(ctx, ns, coll, expiry); err != nil && ctx.Err() == nil {
					l.WarnContext(ctx, "TTL monitor: deleting expired documents failed", slog.String("ns", ns), logging.Error(err))
				}
			}
		}
	}

	ttlMetrics.passes.Add(1)
}

// ttlExpiry is one TTL index: its field's path and its expireAfterSeconds.
type ttlExpiry struct {
	path  types.Path
	after time.Duration
}

// expired tells whether doc's field is a date, or an array holding a date, at or before now minus the index's delay.
func (e ttlExpiry) expired(doc *types.Document, now time.Time) bool {
	v, err := doc.GetByPath(e.path)
	if err != nil {
		return false
	}

	cutoff := now.Add(-e.after)

	switch v := v.(type) {
	case time.Time:
		return !v.After(cutoff)
	case *types.Array:
		for i := 0; i < v.Len(); i++ {
			if t, ok := must.NotFail(v.Get(i)).(time.Time); ok && !t.After(cutoff) {
				return true
			}
		}
	}

	return false
}

// ttlExpire deletes the collection's expired documents: at most ttlScanLimit ids per scan, then in batches.
func (h *Handler) ttlExpire(ctx context.Context, ns string, coll backends.Collection, expiry ttlExpiry) error {
	for {
		ids, err := ttlScan(ctx, coll, expiry)
		if err != nil {
			return lazyerrors.Error(err)
		}

		if len(ids) == 0 {
			return nil
		}

		ttlHoldIfAsked(ctx, ns)

		var deleted int32

		for i := 0; i < len(ids); i += ttlDeleteBatch {
			n, err := ttlDelete(ctx, ns, coll, expiry, ids[i:min(i+ttlDeleteBatch, len(ids))])
			if err != nil {
				return lazyerrors.Error(err)
			}

			deleted += n
		}

		// a full scan again only while it makes progress (what could not be deleted would be found again)
		if len(ids) < ttlScanLimit || deleted == 0 {
			return nil
		}
	}
}

// ttlScan reads the collection (no lock: reads run beside the writers) for the ids of expired documents.
func ttlScan(ctx context.Context, coll backends.Collection, expiry ttlExpiry) ([]any, error) {
	now := time.Now()

	params := new(backends.QueryParams)
	if expiry.path.Len() == 1 {
		params.Filter = must.NotFail(types.NewDocument(
			expiry.path.String(), must.NotFail(types.NewDocument("$lte", now.Add(-expiry.after))),
		))
	}

	q, err := coll.Query(ctx, params)
	if err != nil {
		if backends.ErrorCodeIs(err, backends.ErrorCodeCollectionDoesNotExist) {
			return nil, nil
		}

		return nil, lazyerrors.Error(err)
	}

	// closes the read transaction before the deletes write
	defer q.Iter.Close()

	var ids []any

	for len(ids) < ttlScanLimit {
		_, doc, err := q.Iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			break
		}

		if err != nil {
			return nil, lazyerrors.Error(err)
		}

		if expiry.expired(doc, now) {
			ids = append(ids, must.NotFail(doc.Get("_id")))
		}
	}

	return ids, nil
}

// ttlDelete deletes, in one command, those of ids still expired when read again under the write locks.
func ttlDelete(ctx context.Context, ns string, coll backends.Collection, expiry ttlExpiry, ids []any) (int32, error) {
	defer ttlLock(ns, ids)()

	now := time.Now()

	var expired []any

	for _, id := range ids {
		filter := must.NotFail(types.NewDocument("_id", id))

		q, err := coll.Query(ctx, &backends.QueryParams{Filter: filter})
		if err != nil {
			return 0, lazyerrors.Error(err)
		}

		for {
			_, doc, err := q.Iter.Next()
			if errors.Is(err, iterator.ErrIteratorDone) {
				break
			}

			if err != nil {
				q.Iter.Close()
				return 0, lazyerrors.Error(err)
			}

			// the pushed-down filter narrows to a superset
			if matches, err := common.FilterDocument(doc, filter); err == nil && matches && expiry.expired(doc, now) {
				expired = append(expired, id)
				break
			}
		}

		q.Iter.Close()
	}

	if len(expired) == 0 {
		return 0, nil
	}

	res, err := coll.DeleteAll(ctx, &backends.DeleteAllParams{IDs: expired})
	if err != nil {
		return 0, lazyerrors.Error(err)
	}

	ttlMetrics.deleted.Add(int64(res.Deleted))

	return res.Deleted, nil
}

// ttlLock takes the locks a delete of ids by a client would take: each keyed document's, else the collection's.
func ttlLock(ns string, ids []any) func() {
	keys := make([]string, 0, len(ids))

	for _, id := range ids {
		key, ok := idKey(must.NotFail(types.NewDocument("_id", id)))
		if !ok {
			rw := collectionLock(ns)
			rw.Lock()

			return rw.Unlock
		}

		keys = append(keys, key)
	}

	return lockDocuments(ns, keys)
}

// ttlMetricsDocument is serverStatus's metrics.ttl.
func ttlMetricsDocument() *types.Document {
	return must.NotFail(types.NewDocument(
		"deletedDocuments", ttlMetrics.deleted.Load(),
		"passes", ttlMetrics.passes.Load(),
	))
}

// ttlHoldIfAsked holds the monitor while the fail point is set on ns.
func ttlHoldIfAsked(ctx context.Context, ns string) {
	held := func() bool {
		ttlFailPoint.Lock()
		defer ttlFailPoint.Unlock()

		_, ok := ttlFailPoint.entered[ns]

		return ok
	}

	ttlFailPoint.Lock()
	if _, ok := ttlFailPoint.entered[ns]; ok {
		ttlFailPoint.entered[ns]++
	}
	ttlFailPoint.Unlock()

	for held() {
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// msgConfigureFailPoint sets or clears hangTTLMonitorBeforeDeletes.
func (h *Handler) msgConfigureFailPoint(_ context.Context, msg *wire.OpMsg) (*wire.OpMsg, error) {
	document, err := opMsgDocument(msg)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	name, err := common.GetRequiredParam[string](document, "configureFailPoint")
	if err != nil {
		return nil, err
	}

	if name != ttlFailPointName {
		return nil, handlererrors.NewCommandErrorMsgWithArgument(
			handlererrors.ErrBadValue, fmt.Sprintf("Cannot find failpoint: %s", name), "configureFailPoint",
		)
	}

	mode, err := common.GetRequiredParam[string](document, "mode")
	if err != nil {
		return nil, err
	}

	data, err := common.GetRequiredParam[*types.Document](document, "data")
	if err != nil {
		return nil, err
	}

	ns, err := common.GetRequiredParam[string](data, "ns")
	if err != nil {
		return nil, err
	}

	ttlFailPoint.Lock()
	count := ttlFailPoint.entered[ns]

	switch mode {
	case "alwaysOn":
		ttlFailPoint.entered[ns] = count
	case "off":
		delete(ttlFailPoint.entered, ns)
	default:
		ttlFailPoint.Unlock()

		return nil, handlererrors.NewCommandErrorMsgWithArgument(
			handlererrors.ErrBadValue, fmt.Sprintf("unsupported failpoint mode: %s", mode), "configureFailPoint",
		)
	}
	ttlFailPoint.Unlock()

	h.L.Debug("fail point set", slog.String("name", name), slog.String("ns", ns))

	return documentOpMsg(must.NotFail(types.NewDocument("count", count, "ok", float64(1))))
}
