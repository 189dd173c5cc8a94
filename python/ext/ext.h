/* SPDX-License-Identifier: MIT */
/* The slidedb._slidedb extension: declarations its files share.
 *
 * The extension is a thin layer: Python objects in, the library's calls,
 * Python objects out. Everything it answers comes from libslidedb. */
#ifndef SLIDEDB_PYTHON_EXT_EXT_H
#define SLIDEDB_PYTHON_EXT_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "slidedb.h"

/* Every file but ext_module.c uses the NumPy C API through the table ext_module.c
 * imports (NumPy's rule for extensions of several files). */
#define PY_ARRAY_UNIQUE_SYMBOL slidedb_ARRAY_API
#ifndef EXT_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#endif
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

extern PyTypeObject ext_database_type, ext_answer_type, ext_check_type, ext_heuristic_type,
                    ext_states_type;

/* Raise the exception of slidedb.errors for a library failure, with
 * sdb_error_detail() as its message (index: the failed row of a batch, or -1;
 * opening: the failure is of opening a database, where a missing file is
 * DatabaseNotFoundError and a path that is no file DatabaseIOError; the
 * classes are chosen in errors.py). Returns NULL. */
PyObject *ext_raise(int err, Py_ssize_t index, int opening);
/* The same for the failure of a search answering a: a search stopped by a
 * limit raises SearchLimitError with the nodes it took (a->nodes). */
PyObject *ext_raise_search(int err, const sdb_answer *a);
/* Raise the class of err with a message of our own. Returns NULL. */
PyObject *ext_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for SDB_EINVAL: slidedb.InvalidBoardError. */
PyObject *ext_invalid(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What keeps a handle that threads share (a Database, a Heuristic) alive
 * under the calls that use it without the GIL: close() from another thread
 * only marks it closed, and the last call under way releases it. Read and
 * written with the GIL held. Every ext_guard_pin() that succeeds is followed
 * by one ext_guard_unpin(). */
typedef struct ext_guard {
	int pins;      /* calls under way, and the objects that depend on the handle */
	int closing;   /* close() was called: no new pins; released with the last one */
} ext_guard;

/* Pin g for a call: 0, or -1 with ValueError "the <what> is closed". */
int ext_guard_pin(ext_guard *g, const char *what);
/* Unpin g: 1 when the caller must release the handle now (closed, and that
 * was the last pin), else 0. */
int ext_guard_unpin(ext_guard *g);
/* close(): 1 when the caller must release the handle now (no pins), 0 when
 * the last unpin will (or it was closed before). */
int ext_guard_close(ext_guard *g);

/* An open database as the other types hold it. */
typedef struct ext_database {
	PyObject_HEAD
	sdb_db *db;
	PyObject *path;
	ext_guard guard;   /* pins: calls under way, open heuristics and listings */
} ext_database;

/* The handle of d for a call that may release the GIL, pinned so that a
 * close() from another thread waits for the call; NULL (raised) when d is
 * closed. Every ext_pin is followed by one ext_unpin, with the GIL held
 * (ext_pin.c). */
const sdb_db *ext_pin(ext_database *d);
void ext_unpin(ext_database *d);
/* Close d's handle now (its last pin is gone, or it is deallocated). */
void ext_release(ext_database *d);

/* The text of str (a str) for the library, which reads C strings: NULL
 * (raised: InvalidBoardError naming `what` and the position) when it holds
 * a NUL, which would end the text there. */
const char *ext_text(PyObject *str, const char *what);

/* An integer argument in lo .. hi: 0, or -1 (raised: TypeError for what is
 * no integer, InvalidBoardError naming `name`, its range and, if not NULL,
 * what None means, for a number out of range). */
int ext_uint_arg(uint64_t *v, PyObject *obj, const char *name, uint64_t lo, uint64_t hi,
                 const char *none);

/* The request of Database.random() and states(): the distances asked, and
 * for random() the walk (NULL: none), into r (begun as
 * SDB_RANDOM_REQUEST_INIT), judged by the library's one rule,
 * sdb_random_check(). 0, or -1 (raised). */
int ext_request_args(sdb_random_request *r, PyObject *distance, PyObject *min_distance,
                     PyObject *max_distance, PyObject *walk);

/* metric= ('stm', 'mtm' or None: 'stm') into *metric (enum sdb_metric);
 * 0, or -1 with ValueError (TypeError for a non-str) raised. */
int ext_metric_arg(int *metric, PyObject *obj);

/* The hold of an object that reads d's tables (a Heuristic, a States) on
 * d: a reference and a pin, kept until ext_let_go() (a later close() of d
 * waits for it). ext_hold() sets *slot, or returns -1 (raised) when d was
 * closed meanwhile; ext_let_go() clears it (NULL is fine). */
int ext_hold(ext_database **slot, ext_database *d);
void ext_let_go(ext_database **slot);

/* A size argument: None (0, 0), "WxH" or (W, H). 0 or -1 (raised). */
int ext_size_arg(PyObject *obj, int *w, int *h);

/* The query of a start and an optional goal (each a str in any notation of
 * the library's parser, a sequence of tile numbers, a nested sequence of
 * rows, or a NumPy array), read by sdb_query_parse() as the CLI reads its
 * arguments. 0 or -1 (raised). */
int ext_query(sdb_query *q, const sdb_db *db, PyObject *start, PyObject *goal, int w, int h);

/* One board (as ext_query()'s start) of size w x h, or inferred when 0. */
int ext_board(sdb_board *b, const sdb_db *db, PyObject *obj, int w, int h, const char *what);

/* The goal of a call: the goal argument (a board of size w x h, or of its
 * own size when 0), else the standard goal of w x h (given). 0 or -1. */
int ext_goal(sdb_board *goal, const sdb_db *db, PyObject *obj, int w, int h);

/* A board as the CLI writes it: "1 2 3 0 8 4 7 6 5". */
PyObject *ext_board_str(const sdb_board *b);

/* Refuse obj, which NumPy read as `raw` but not as integers, saying why:
 * NumPy reads a Python int beyond 64 bits, or 2**63 among small ints, as
 * objects or floats, so the values are looked at (a tile out of range, or
 * the first value that is no integer). what: the board's name ("start"), or
 * NULL for the rows of a batch ("board I: ..."). Returns -1 (raised). */
int ext_refuse_tiles(PyObject *obj, PyArrayObject *raw, const char *what);

/* The rows of a states array: a C-contiguous (N, W*H) uint8 array; the size
 * from *w, *h when set, else from a (N, H, W) shape, else the cell count
 * (settled by db's tables). New reference, or NULL (raised). */
PyArrayObject *ext_states(PyObject *obj, const sdb_db *db, int *w, int *h);

/* Search limits from max_nodes and timeout arguments (None: no limit).
 * In the main thread they carry a poll that lets Ctrl-C stop the search:
 * the search then fails with SDB_ELIMIT and KeyboardInterrupt is already
 * raised (ext_raise() keeps it). */
int ext_limits(sdb_solve_limits *l, PyObject *max_nodes, PyObject *timeout);

/* A search's progress callback (solve(progress=...)): called with (bound,
 * nodes, seconds) at most every EXT_PROGRESS_SECONDS, the GIL taken for the
 * call alone; a true value stops the search (stopped), an exception stops it
 * and is raised. */
#define EXT_PROGRESS_SECONDS 0.25
typedef struct ext_progress {
	PyObject *fn;                      /* borrowed from the call's arguments */
	int main_thread;                   /* Ctrl-C is looked for too */
	double next_call, next_signals;
	int bound;                         /* at its last call */
	uint64_t nodes;
	int stopped;                       /* it returned a true value */
} ext_progress;

/* Put the poll of fn (None: leave l's) into limits made by ext_limits().
 * 0, or -1 (raised: fn is not callable). p must outlive the search. */
int ext_progress_arg(sdb_solve_limits *l, ext_progress *p, PyObject *fn);

/* The interpreter's main thread (threading.main_thread()), the only one
 * Python runs signal handlers in; set when the module is imported. */
extern unsigned long ext_main_thread;

/* A new Answer / Check object. */
PyObject *ext_answer_new(const sdb_query *q, const sdb_answer *a, unsigned asked,
                         PyObject *all_moves);
PyObject *ext_check_new(const sdb_query *q, const sdb_check *c, PyObject *moves, int metric);

/* What was asked of an answer (fields shown and put in to_dict()). */
enum { ASK_PATH = 1, ASK_BEST_MOVES = 2, ASK_COUNT = 4, ASK_TILES = 8, ASK_ALL = 16,
       HAVE_BEST_MOVES = 32 /* counting finds them too (not shown by the CLI) */,
       ASK_MTM = 64 /* in the multi-tile metric: moves written r3ul2 */ };

/* d[key] = value, the reference to value stolen (NULL: a failure already
 * raised). 0 or -1. */
int ext_dict_put(PyObject *d, const char *key, PyObject *value);

/* A dict of the library's fields: ext_fields_begin() (NULL: out of
 * memory), sdb_answer_fields() / sdb_check_fields() / sdb_table_fields()
 * with ext_field_put as the visitor, then ext_fields_end(): the dict, or
 * NULL with an exception set. */
enum { EXT_FIELDS_DEPTH = 4 };   /* the dict, a list, a list in it (grids), room */
typedef struct ext_fields {
	PyObject *open[EXT_FIELDS_DEPTH];   /* [0] the dict, then the lists being filled */
	int depth;
	int failed;
} ext_fields;
PyObject *ext_fields_begin(ext_fields *b);
int ext_field_put(void *ctx, const sdb_field *f);
PyObject *ext_fields_end(ext_fields *b);


/* Database.states(): the whole listing, or a States of chunks. */
PyObject *ext_db_states(ext_database *self, PyObject *args, PyObject *kw);

/* A new Heuristic over d (pinned until it is closed). */
PyObject *ext_heuristic_new(ext_database *d, sdb_heuristic *h, const sdb_board *goal);

#endif
