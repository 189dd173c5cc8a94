/* SPDX-License-Identifier: MIT */
/* Database: an open slidedb file, read-only, shared by every thread.
 *
 * Calls that may take long (batches, searches, counts) release the GIL; the
 * handle is pinned meanwhile, so close() from another thread (or the end of
 * a `with` block) closes it only when the last such call is done. */
#include <sys/random.h>
#include <time.h>

#include "ext.h"

static int db_closed(const ext_database *d)
{
	return !d->db || d->guard.closing;
}

/* 0, or -1 (raised) when the bytes object b holds a NUL. */
static int bytes_nul(PyObject *b, const char *what)
{
	const char *at = memchr(PyBytes_AS_STRING(b), 0, (size_t)PyBytes_GET_SIZE(b));
	if (!at)
		return 0;
	ext_invalid("%s: a NUL character at position %zd", what, at - PyBytes_AS_STRING(b) + 1);
	return -1;
}

/* A path argument (str, bytes or os.PathLike) as the file system's bytes:
 * a new reference, or NULL (raised; InvalidBoardError for a NUL, which would
 * open the file named by the text before it). */
static PyObject *path_arg(PyObject *path)
{
	PyObject *fs = PyOS_FSPath(path), *bytes = NULL;
	if (!fs)
		return NULL;
	if (PyUnicode_Check(fs) ? ext_text(fs, "path") != NULL : !bytes_nul(fs, "path"))
		PyUnicode_FSConverter(fs, &bytes);
	Py_DECREF(fs);
	return bytes;
}

static int db_init(ext_database *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "path", NULL };
	PyObject *path = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:Database", kwlist, &path))
		return -1;
	if (self->db) {
		PyErr_SetString(PyExc_RuntimeError, "Database.__init__ called twice");
		return -1;
	}
	PyObject *bytes = NULL;
	if (path != Py_None && !(bytes = path_arg(path)))
		return -1;
	const char *p = bytes ? PyBytes_AS_STRING(bytes) : NULL;
	sdb_db *db = NULL;
	int err;
	Py_BEGIN_ALLOW_THREADS
	err = sdb_db_open(&db, p, SDB_RDONLY);
	Py_END_ALLOW_THREADS
	Py_XDECREF(bytes);
	if (err) {
		ext_raise(err, -1, 1);
		return -1;
	}
	self->db = db;
	self->path = PyUnicode_DecodeFSDefault(sdb_db_path(db));
	return self->path ? 0 : -1;
}

static void db_dealloc(ext_database *self)
{
	/* Every pin holds a reference: none are left here. */
	ext_release(self);
	Py_XDECREF(self->path);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *db_close(ext_database *self, PyObject *noargs)
{
	(void)noargs;
	if (self->db && ext_guard_close(&self->guard))
		ext_release(self);
	Py_RETURN_NONE;
}

static PyObject *db_enter(ext_database *self, PyObject *noargs)
{
	(void)noargs;
	if (db_closed(self)) {
		PyErr_SetString(PyExc_ValueError, "the database is closed");
		return NULL;
	}
	return Py_NewRef(self);
}

static PyObject *db_exit(ext_database *self, PyObject *args)
{
	(void)args;
	return db_close(self, NULL);
}

static PyObject *db_repr(ext_database *self)
{
	if (db_closed(self))
		return PyUnicode_FromFormat("<slidedb.Database %R (closed)>", self->path);
	const int n = sdb_table_count(self->db);
	return PyUnicode_FromFormat("<slidedb.Database %R: %d table%s>", self->path, n,
	                            n == 1 ? "" : "s");
}

static PyObject *get_path(ext_database *self, void *c)
{
	(void)c;
	return Py_NewRef(self->path ? self->path : Py_None);
}

static PyObject *get_closed(ext_database *self, void *c)
{
	(void)c;
	return PyBool_FromLong(db_closed(self));
}

static PyObject *get_changed(ext_database *self, void *c)
{
	(void)c;
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	int changed = sdb_db_changed(db);
	ext_unpin(self);
	return PyBool_FromLong(changed);
}

static PyObject *db_reopen(ext_database *self, PyObject *noargs)
{
	(void)noargs;
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	sdb_db *fresh = NULL;
	int err;
	Py_BEGIN_ALLOW_THREADS
	err = sdb_db_reopen(&fresh, (sdb_db *)db);
	Py_END_ALLOW_THREADS
	ext_unpin(self);
	if (err)
		return ext_raise(err, -1, 0);
	ext_database *o = PyObject_New(ext_database, &ext_database_type);
	if (!o) {
		sdb_db_close(fresh);
		return NULL;
	}
	o->db = fresh;
	o->guard = (ext_guard){ 0 };
	o->path = Py_NewRef(self->path);
	return (PyObject *)o;
}

static PyObject *db_tables(ext_database *self, PyObject *noargs)
{
	(void)noargs;
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	const int n = sdb_table_count(db);
	PyObject *list = PyList_New(n);
	for (int i = 0; list && i < n; i++) {
		/* the library's fields of the table: `slidedb-lookup info --json` */
		ext_fields b;
		if (ext_fields_begin(&b))
			sdb_table_fields(sdb_table_at(db, i), ext_field_put, &b);
		PyObject *d = ext_fields_end(&b);
		if (!d)
			Py_CLEAR(list);
		else
			PyList_SET_ITEM(list, i, d);
	}
	ext_unpin(self);
	return list;
}

/* The optimal sequences of --all, gathered without the GIL. */
typedef struct seqs {
	char *buf;
	size_t len, cap;
	int failed;
} seqs;

static int add_seq(void *ctx, const char *moves)
{
	seqs *s = ctx;
	size_t n = strlen(moves) + 1;
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? 2 * s->cap + n : 4096;
		char *b = realloc(s->buf, cap);
		if (!b) {
			s->failed = 1;
			return 1;
		}
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, moves, n);
	s->len += n;
	return 0;
}

static PyObject *seqs_list(const seqs *s)
{
	PyObject *list = PyList_New(0);
	for (size_t at = 0; list && at < s->len; at += strlen(s->buf + at) + 1) {
		PyObject *m = PyUnicode_FromString(s->buf + at);
		if (!m || PyList_Append(list, m))
			Py_CLEAR(list);
		Py_XDECREF(m);
	}
	return list;
}

static PyObject *db_solve(ext_database *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "start", "goal", "size", "path", "all_best", "solutions", "tiles",
	                          "all", "limit", "max_nodes", "timeout", "threads", "sets",
	                          "progress", "metric", NULL };
	PyObject *start, *goal = Py_None, *size = Py_None, *max_nodes = Py_None, *timeout = Py_None,
	         *limit_obj = NULL, *progress = Py_None, *metric_obj = Py_None;
	int path = 0, all_best = 0, count = 0, tiles = 0, all = 0, threads = 1, metric;
	const char *sets = NULL;
	uint64_t limit = 100;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$OpppppOOOizOO:solve", kwlist, &start, &goal,
	                                 &size, &path, &all_best, &count, &tiles, &all, &limit_obj,
	                                 &max_nodes, &timeout, &threads, &sets, &progress,
	                                 &metric_obj) ||
	    ext_metric_arg(&metric, metric_obj))
		return NULL;
	if (threads < 1 || threads > 1024)
		return ext_invalid("threads must be 1 to 1024, not %d", threads);
	if (limit_obj && ext_uint_arg(&limit, limit_obj, "limit", 0, UINT64_MAX, NULL))
		return NULL;
	int w, h;
	sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
	                         .want_moves = 1, .want_best_moves = all_best,
	                         .want_count = count, .metric = metric };
	ext_progress shown;
	if (ext_size_arg(size, &w, &h) || ext_limits(&opts.limits, max_nodes, timeout) ||
	    ext_progress_arg(&opts.limits, &shown, progress))
		return NULL;
	opts.limits.threads = threads;
	opts.sets = sets;   /* (the call holds the string until it returns) */
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	sdb_query q;
	sdb_answer a, listed;
	seqs s = { 0 };
	int err = ext_query(&q, db, start, goal, w, h);
	if (err) {
		ext_unpin(self);
		return NULL;
	}
	const sdb_answer *searched = &a;   /* the search an error is of */
	Py_BEGIN_ALLOW_THREADS
	err = sdb_answer_query(&a, db, &q.start, &q.goal, &opts);
	if (!err && all && a.solvable) {
		searched = &listed;
		err = sdb_answer_paths(&listed, db, &q.start, &q.goal, limit, &opts, add_seq, &s);
	}
	Py_END_ALLOW_THREADS
	PyObject *result = NULL, *list = NULL;
	if (err == SDB_ELIMIT && shown.stopped)
		ext_fail(err, "search stopped by its progress callback (bound %d, %llu nodes)",
		         shown.bound, (unsigned long long)shown.nodes);
	else if (err)
		ext_raise_search(err, searched);
	else if (s.failed)
		PyErr_NoMemory();
	else if (!all || (list = seqs_list(&s)))
		result = ext_answer_new(&q, &a, (path ? ASK_PATH : 0) | (all_best ? ASK_BEST_MOVES : 0) |
		                        (all_best || count ? HAVE_BEST_MOVES : 0) |
		                        (count ? ASK_COUNT : 0) | (tiles ? ASK_TILES : 0) |
		                        (all ? ASK_ALL : 0) |
		                        (metric == SDB_METRIC_MTM ? ASK_MTM : 0), list);
	Py_XDECREF(list);
	free(s.buf);
	ext_unpin(self);
	return result;
}

static PyObject *db_check(ext_database *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "start", "moves", "goal", "size", "max_nodes", "timeout", "metric",
	                          NULL };
	PyObject *start, *moves, *goal = Py_None, *size = Py_None, *max_nodes = Py_None,
	         *timeout = Py_None, *metric_obj = Py_None;
	int metric;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "OU|O$OOOO:check", kwlist, &start, &moves, &goal,
	                                 &size, &max_nodes, &timeout, &metric_obj) ||
	    ext_metric_arg(&metric, metric_obj))
		return NULL;
	int w, h;
	sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION, .want_moves = 0,
	                         .metric = metric };
	if (ext_size_arg(size, &w, &h) || ext_limits(&opts.limits, max_nodes, timeout))
		return NULL;
	const char *m = ext_text(moves, "moves");
	if (!m)
		return NULL;
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	sdb_query q;
	sdb_check c;
	PyObject *result = NULL;
	if (ext_query(&q, db, start, goal, w, h) == 0) {
		int err;
		Py_BEGIN_ALLOW_THREADS
		err = sdb_check_moves(&c, db, &q.start, &q.goal, m, &opts);
		Py_END_ALLOW_THREADS
		result = err ? ext_raise(err, -1, 0) : ext_check_new(&q, &c, moves, metric);
	}
	ext_unpin(self);
	return result;
}

/* distance(), best_move() and label(): one pass of sdb_batch_distance(). */
static PyObject *batch(ext_database *self, PyObject *args, PyObject *kw, int want_dist,
                       int want_best, const char *fmt)
{
	static char *kwlist[] = { "states", "goal", "size", "max_nodes", "timeout", "metric", NULL };
	PyObject *states, *goal_obj = Py_None, *size = Py_None, *max_nodes = Py_None,
	         *timeout = Py_None, *metric_obj = Py_None;
	int metric;
	if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &states, &goal_obj, &size,
	                                 &max_nodes, &timeout, &metric_obj) ||
	    ext_metric_arg(&metric, metric_obj))
		return NULL;
	int w, h;
	sdb_solve_limits limits;
	if (ext_size_arg(size, &w, &h) || ext_limits(&limits, max_nodes, timeout))
		return NULL;
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	sdb_board goal;
	PyArrayObject *rows = NULL, *dist = NULL, *best = NULL;
	PyObject *result = NULL;
	/* a goal given decides the size before the states are read */
	if (goal_obj != Py_None) {
		if (ext_board(&goal, db, goal_obj, w, h, "goal"))
			goto done;
		w = goal.w;
		h = goal.h;
	}
	if (!(rows = ext_states(states, db, &w, &h)) ||
	    (goal_obj == Py_None && ext_goal(&goal, db, goal_obj, w, h)))
		goto done;
	npy_intp n = PyArray_DIM(rows, 0);
	if ((want_dist && !(dist = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_INT16))) ||
	    (want_best && !(best = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_INT8))))
		goto done;
	size_t bad = 0;
	int err;
	Py_BEGIN_ALLOW_THREADS
	err = sdb_batch_distance_metric(dist ? PyArray_DATA(dist) : NULL,
	                                best ? PyArray_DATA(best) : NULL, db, &goal,
	                                PyArray_DATA(rows), (size_t)n, &limits, &bad, metric);
	Py_END_ALLOW_THREADS
	if (err)
		ext_raise(err, err == SDB_EINVAL || err == SDB_ELIMIT ? (Py_ssize_t)bad : -1, 0);
	else if (want_dist && want_best)
		result = PyTuple_Pack(2, dist, best);
	else
		result = Py_NewRef(dist ? (PyObject *)dist : (PyObject *)best);
done:
	Py_XDECREF(rows);
	Py_XDECREF(dist);
	Py_XDECREF(best);
	ext_unpin(self);
	return result;
}

static PyObject *db_distance(ext_database *self, PyObject *args, PyObject *kw)
{
	return batch(self, args, kw, 1, 0, "O|O$OOOO:distance");
}

static PyObject *db_best_move(ext_database *self, PyObject *args, PyObject *kw)
{
	return batch(self, args, kw, 0, 1, "O|O$OOOO:best_move");
}

static PyObject *db_label(ext_database *self, PyObject *args, PyObject *kw)
{
	return batch(self, args, kw, 1, 1, "O|O$OOOO:label");
}

enum { DRAW_CHUNK = 1024 };

/* Draw the request's boards into rows (n cells each), without the GIL. */
static int draw(sdb_random *rd, size_t n, uint8_t *rows, size_t count)
{
	sdb_board *boards = malloc(DRAW_CHUNK * sizeof *boards);
	if (!boards)
		return SDB_ENOMEM;
	int err = SDB_OK;
	for (size_t done = 0; !err && done < count;) {
		const size_t k = count - done < DRAW_CHUNK ? count - done : DRAW_CHUNK;
		err = sdb_random_draw(rd, boards, k);
		for (size_t i = 0; !err && i < k; i++)
			memcpy(rows + (done + i) * n, boards[i].cell, n);
		done += k;
	}
	free(boards);
	return err;
}

static PyObject *db_random(ext_database *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "size", "count", "distance", "min_distance", "max_distance",
	                          "goal", "walk", "seed", "metric", NULL };
	PyObject *size = Py_None, *goal_obj = Py_None, *seed_obj = Py_None, *dist_obj = Py_None,
	         *min_obj = Py_None, *max_obj = Py_None, *walk_obj = Py_None, *count_obj = NULL,
	         *metric_obj = Py_None;
	int w, h;
	sdb_random_request req = SDB_RANDOM_REQUEST_INIT;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO$OOOOOOO:random", kwlist, &size, &count_obj,
	                                 &dist_obj, &min_obj, &max_obj, &goal_obj, &walk_obj,
	                                 &seed_obj, &metric_obj) ||
	    ext_metric_arg(&req.metric, metric_obj))
		return NULL;
	if (ext_size_arg(size, &w, &h) ||
	    (count_obj && ext_uint_arg(&req.count, count_obj, "count", 1, PY_SSIZE_T_MAX, NULL)) ||
	    (seed_obj != Py_None &&
	     ext_uint_arg(&req.seed, seed_obj, "seed", 0, UINT64_MAX, "None: a fresh seed")) ||
	    ext_request_args(&req, dist_obj, min_obj, max_obj, walk_obj))
		return NULL;
	req.seed_given = seed_obj != Py_None;
	if (!w && goal_obj == Py_None)
		return ext_invalid("random() needs a size ('3x3') or a goal");
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	sdb_board goal;
	PyObject *result = NULL;
	if (ext_goal(&goal, db, goal_obj, w, h) == 0) {
		npy_intp dims[2] = { (npy_intp)req.count, goal.n };
		PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_UINT8);
		sdb_random *rd = NULL;
		int err = 0;
		if (out) {
			uint8_t *rows = PyArray_DATA(out);
			Py_BEGIN_ALLOW_THREADS
			err = sdb_random_open(&rd, db, &goal, &req);
			if (!err)
				err = draw(rd, goal.n, rows, (size_t)req.count);
			sdb_random_close(rd);
			Py_END_ALLOW_THREADS
			if (err)
				ext_raise(err, -1, 0);
			else
				result = Py_NewRef(out);
			Py_DECREF(out);
		}
	}
	ext_unpin(self);
	return result;
}

static PyObject *db_heuristic(ext_database *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "set", "goal", "size", NULL };
	const char *set = NULL;
	PyObject *set_obj = Py_None, *goal_obj = Py_None, *size = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO$O:heuristic", kwlist, &set_obj, &goal_obj,
	                                 &size))
		return NULL;
	if (set_obj != Py_None && !PyUnicode_Check(set_obj))
		return PyErr_Format(PyExc_TypeError, "set must be a str or None, not %.100s",
		                    Py_TYPE(set_obj)->tp_name);
	int w, h;
	if ((set_obj != Py_None && !(set = ext_text(set_obj, "set"))) || ext_size_arg(size, &w, &h))
		return NULL;
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	const int manhattan = set && !strcmp(set, "manhattan");
	sdb_board goal;
	if (goal_obj == Py_None && !w && set && !manhattan) {
		/* the set's own size, and the goal it is numbered by */
		const sdb_table *t = NULL;
		uint64_t tiles, left;
		char first[SDB_NAME_MAX];   /* of "A+B", A's */
		snprintf(first, sizeof first, "%.*s", (int)strcspn(set, "+"), set);
		if (sdb_table_select(&t, 1, db, first) < 1) {
			ext_unpin(self);
			return ext_raise(SDB_ENOTFOUND, -1, 0);
		}
		sdb_table_tiles(&tiles, &left, &goal, sdb_table_meta(t));
	} else if (goal_obj == Py_None && !w) {
		ext_unpin(self);
		return ext_invalid("heuristic() needs a goal, a size ('4x4') or a set's name");
	} else if (ext_goal(&goal, db, goal_obj, w, h)) {
		ext_unpin(self);
		return NULL;
	}
	sdb_heuristic *hs = NULL;
	int err;
	Py_BEGIN_ALLOW_THREADS
	err = manhattan ? sdb_heuristic_open_manhattan(&hs, &goal)
	                : sdb_heuristic_open(&hs, db, &goal, set);
	Py_END_ALLOW_THREADS
	PyObject *result = err ? ext_raise(err, -1, 0) : ext_heuristic_new(self, hs, &goal);
	if (!result)
		sdb_heuristic_close(hs);
	ext_unpin(self);
	return result;
}

static PyMethodDef db_methods[] = {
	{ "close", (PyCFunction)db_close, METH_NOARGS,
	  "close($self, /)\n--\n\n"
	  "Close the database. Calls under way in other threads finish first; open heuristics\n"
	  "keep it open until they are closed. Closing twice is harmless." },
	{ "__enter__", (PyCFunction)db_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n" },
	{ "__exit__", (PyCFunction)db_exit, METH_VARARGS, "__exit__($self, *exc_info, /)\n--\n\nClose." },
	{ "reopen", (PyCFunction)db_reopen, METH_NOARGS,
	  "reopen($self, /)\n--\n\n"
	  "A fresh snapshot: a new Database that sees the file as it is now (tables committed\n"
	  "since this one was opened included). Both stay open; close the old one when done\n"
	  "with it, so that writers can reuse its pages." },
	{ "tables", (PyCFunction)db_tables, METH_NOARGS,
	  "tables($self, /)\n--\n\n"
	  "The catalog: one dict per table, in name order, with the fields of\n"
	  "`slidedb-lookup info --json` (name, kind, size, goal, blank_cells, entry_format,\n"
	  "states, bytes, chunks, max_distance, crc32, built_at, build_seconds, threads, tool_version,\n"
	  "format_version, counts; pattern tables add set, group, groups, blank, layout, tiles,\n"
	  "left_out, tiles_of)." },
	{ "solve", (PyCFunction)(void (*)(void))db_solve, METH_VARARGS | METH_KEYWORDS,
	  "solve($self, start, goal=None, *, size=None, path=False, all_best=False, solutions=False,\n"
	  "      tiles=False, all=False, limit=100, max_nodes=None, timeout=None, threads=1,\n"
	  "      sets=None, progress=None, metric=None)\n"
	  "--\n\n"
	  "Answer one question: the optimal distance from start to goal, a best move and an\n"
	  "optimal move sequence, as `slidedb-lookup` answers it.\n\n"
	  "start, goal: boards in any notation the CLI reads ('1 2 3 x 4 6 7 5 8',\n"
	  "  '123804765', '[[1,2,3],[4,0,5]]', 'START ; GOAL'), sequences of tile numbers\n"
	  "  ([1, 2, 3, 0, ...], rows as nested lists) or NumPy arrays (2-D: rows). goal\n"
	  "  defaults to the tiles in order with the blank last.\n"
	  "size: 'WxH' or (W, H) when the cell count fits several sizes and the tables do not\n"
	  "  settle it (6 cells: 2x3 or 3x2; 25 cells are 5x5).\n"
	  "path, tiles: put the boards / the sliding tiles in to_dict() (the attributes always\n"
	  "  have them).\n"
	  "all_best: fill best_moves (every first move of an optimal solution).\n"
	  "solutions: fill solutions (the number of optimal sequences, exact) and\n"
	  "  best_moves.\n"
	  "all, limit: fill all_moves with up to limit optimal sequences.\n"
	  "max_nodes, timeout: bounds on a search (boards without full tables: 4x4, 5x5, ...).\n"
	  "  Ctrl-C stops a search in the main thread (KeyboardInterrupt).\n"
	  "threads: split one search over that many threads (the same answer; counts and\n"
	  "  lists of optimal sequences search on one).\n"
	  "sets: the pattern-database sets a search takes ('A', or 'A+B' for the larger\n"
	  "  bound); None: the database's best.\n"
	  "progress: a callable progress(bound, nodes, seconds) called during a search\n"
	  "  (at most 4 times a second, from the calling thread): the IDA* bound, the nodes\n"
	  "  expanded and the seconds since it began. A true return value stops the search\n"
	  "  (SearchLimitError); an exception it raises stops it and is raised.\n"
	  "metric: 'stm' (None: one tile a move) or 'mtm' (a slide of a row or column toward\n"
	  "  the blank a move, from the tables of `slidedb-gen full WxH --metric mtm`, boards up\n"
	  "  to 14 cells; moves and all_moves written 'r3ul2').\n\n"
	  "Returns an Answer (an unsolvable pair is an answer: solvable is False).\n"
	  "Raises InvalidBoardError, AmbiguousSizeError, TableNotFoundError (naming the\n"
	  "slidedb-gen command), SearchLimitError, CorruptDatabaseError." },
	{ "check", (PyCFunction)(void (*)(void))db_check, METH_VARARGS | METH_KEYWORDS,
	  "check($self, start, moves, goal=None, *, size=None, max_nodes=None, timeout=None,\n"
	  "      metric=None)\n--\n\n"
	  "Judge a move sequence ('rrdl': where the blank goes; 'r2dl': a letter with a count is\n"
	  "that many) from start to goal, as an online judge does: replay it, then compare it\n"
	  "with the optimal distance. A sequence that leaves the board, falls short or is too\n"
	  "long is a verdict, not an error. metric: as solve() (in 'mtm' a run of one letter is\n"
	  "one move).\n\n"
	  "Returns a Check. Raises InvalidBoardError (a bad board, or a character that is not a\n"
	  "move), TableNotFoundError, SearchLimitError." },
	{ "distance", (PyCFunction)(void (*)(void))db_distance, METH_VARARGS | METH_KEYWORDS,
	  "distance($self, states, goal=None, *, size=None, max_nodes=None, timeout=None,\n"
	  "         metric=None)\n--\n\n"
	  "Optimal distances of many boards to one goal, at C speed without the GIL.\n\n"
	  "states: an integer array of shape (N, W*H) (one board per row, 0 for the blank) or\n"
	  "  (N, H, W), of any integer dtype and layout (uint8 C-contiguous is read in place),\n"
	  "  or anything numpy.asarray() makes one of.\n"
	  "goal: one board (as in solve()); default the tiles in order, blank last. The size\n"
	  "  comes from goal, size, the (N, H, W) shape, or the cell count (settled by the\n"
	  "  tables when several sizes fit).\n"
	  "metric: as solve().\n\n"
	  "Returns an int16 array of N distances, -1 where the goal cannot be reached.\n"
	  "Raises InvalidBoardError (its index is the row that is not a board),\n"
	  "TableNotFoundError, SearchLimitError (boards without full tables are searched)." },
	{ "best_move", (PyCFunction)(void (*)(void))db_best_move, METH_VARARGS | METH_KEYWORDS,
	  "best_move($self, states, goal=None, *, size=None, max_nodes=None, timeout=None,\n"
	  "          metric=None)\n--\n\n"
	  "The first move of an optimal solution of many boards, as distance() reads them.\n\n"
	  "Returns an int8 array of N moves: 0 u, 1 d, 2 l, 3 r (slidedb.MOVES[m] is the letter,\n"
	  "where the blank goes), -1 at the goal and where the goal cannot be reached." },
	{ "label", (PyCFunction)(void (*)(void))db_label, METH_VARARGS | METH_KEYWORDS,
	  "label($self, states, goal=None, *, size=None, max_nodes=None, timeout=None,\n"
	  "      metric=None)\n--\n\n"
	  "distance() and best_move() in one pass: a tuple (int16 distances, int8 moves)." },
	{ "random", (PyCFunction)(void (*)(void))db_random, METH_VARARGS | METH_KEYWORDS,
	  "random($self, size=None, count=1, *, distance=None, min_distance=None,\n"
	  "       max_distance=None, goal=None, walk=None, seed=None, metric=None)\n--\n\n"
	  "Random boards, as `slidedb-lookup random` draws them: count boards drawn\n"
	  "independently and uniformly among the states exactly `distance` moves from the goal\n"
	  "(or min_distance to max_distance), or among every board that can reach the goal\n"
	  "(no distance: any size, no table needed), or scrambled by a random walk of `walk`\n"
	  "moves. The same seed gives the same boards as the CLI's --seed.\n\n"
	  "size: 'WxH' or (W, H); goal: a board (default: the standard goal of the size).\n"
	  "distance, min_distance, max_distance: 0 to 127 (distance does not combine with the\n"
	  "  others; one end of a range alone leaves the other open); walk: 0 to 1000000 moves\n"
	  "  (not with a distance); seed: 0 to 2**64 - 1 (None: a fresh one).\n"
	  "metric: as solve(): distances from the MTM tables, a walk's moves slides.\n\n"
	  "Returns a uint8 array of shape (count, W*H). Raises InvalidBoardError (no state at\n"
	  "that distance: the message gives the range; a number out of its range),\n"
	  "TableNotFoundError, BoardTooLargeError (a distance on a board without full tables)." },
	{ "states", (PyCFunction)(void (*)(void))ext_db_states, METH_VARARGS | METH_KEYWORDS,
	  "states($self, size=None, *, distance=None, min_distance=None, max_distance=None,\n"
	  "       goal=None, chunk=None, metric=None)\n--\n\n"
	  "Every state exactly `distance` moves from the goal (or min_distance to max_distance),\n"
	  "each once, in the index order of the goal's full table: a dataset for learning\n"
	  "without the repeats and gaps of random(). No distance: every state that reaches the\n"
	  "goal, with their distances when the goal has a full table of bytes, else (no table,\n"
	  "or one of two bits) the goal's class in rank order without distances.\n\n"
	  "size, goal, distance, min_distance, max_distance: as random() takes them (a size or\n"
	  "  a goal; distance does not combine with a range; one end of a range alone leaves\n"
	  "  the other open; 0 to 127).\n"
	  "chunk: None for the whole listing at once; N for an iterator of chunks of up to N\n"
	  "  rows (a States), for tables too big to hold at once (2x6: 239 million states).\n"
	  "metric: as solve(): the distances of the MTM tables.\n\n"
	  "Returns (states, distances): a uint8 array (N, W*H), 0 for the blank, and an int16\n"
	  "array (N,), or None without distances; with chunk, a States of such tuples.\n"
	  "Raises TableNotFoundError (a distance needs the goal's full table: the message\n"
	  "names the slidedb-gen command), BoardTooLargeError (over 14 cells: no listing),\n"
	  "InvalidBoardError (a distance with a two-bit table, a bad argument)." },
	{ "heuristic", (PyCFunction)(void (*)(void))db_heuristic, METH_VARARGS | METH_KEYWORDS,
	  "heuristic($self, set=None, goal=None, *, size=None)\n--\n\n"
	  "A lower bound on the distance to goal, for a solver of your own: the additive\n"
	  "pattern-database set `set` (a name such as 'pdb-4x4-b0-5-5-5', or several joined by\n"
	  "'+' for the largest of their bounds; None: the strongest complete set that serves the\n"
	  "goal, with every other within 5% of its strength), with the mirror about the main\n"
	  "diagonal where it applies, or 'manhattan' for Manhattan distance plus linear conflicts\n"
	  "(no tables).\n\n"
	  "goal: a board, or the standard goal of `size`, or (set given) the goal the set is\n"
	  "numbered by. Every table of the set is checked against its CRC-32 first, once\n"
	  "per Database: later heuristics and searches of this one find it checked.\n\n"
	  "Returns a Heuristic (a context manager). Raises TableNotFoundError (naming the\n"
	  "slidedb-gen command), CorruptDatabaseError." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef db_getset[] = {
	{ "path", (getter)get_path, NULL, "The path of the database file.", NULL },
	{ "closed", (getter)get_closed, NULL, "Whether close() was called.", NULL },
	{ "changed", (getter)get_changed, NULL,
	  "Whether a writer has committed to the file since this snapshot was taken (then\n"
	  "reopen() sees the new tables). Cheap: reads LMDB's lock file.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject ext_database_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "slidedb.Database",
	.tp_basicsize = sizeof(ext_database),
	.tp_dealloc = (destructor)db_dealloc,
	.tp_repr = (reprfunc)db_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Database(path=None)\n--\n\n"
	          "A slidedb database opened read-only (slidedb.open() is the usual way).\n\n"
	          "path: the file; None for $SLIDEDB_DB, else ./slidedb.lmdb, as the programs.\n"
	          "The handle reads one snapshot of the file for its whole life (reopen() takes a\n"
	          "fresh one) and may be used by many threads at once: batches, searches and\n"
	          "counts release the GIL. Use it as a context manager, or close() it.\n\n"
	          "Raises DatabaseNotFoundError (no such file), CorruptDatabaseError (not a\n"
	          "slidedb database, or truncated), VersionError, DatabaseIOError.",
	.tp_methods = db_methods,
	.tp_getset = db_getset,
	.tp_init = (initproc)db_init,
	.tp_new = PyType_GenericNew,
};
