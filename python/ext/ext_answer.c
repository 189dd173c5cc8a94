/* SPDX-License-Identifier: MIT */
/* Answer and Check: the library's answers as read-only Python objects whose
 * attributes are the fields of slidedb-lookup's JSON. The C structs are
 * kept as they are and fields are made on access, so an answer costs one
 * allocation until it is read. */
#include "ext.h"

typedef struct {
	PyObject_HEAD
	sdb_query q;
	sdb_answer a;
	unsigned asked;
	PyObject *all_moves;        /* list of str, when asked */
	PyObject *heuristic_name;   /* str, for searched answers */
	PyObject *note;             /* str or NULL */
} answer_object;

static PyObject *maybe_str(const char *s)
{
	return s ? PyUnicode_FromString(s) : NULL;
}

PyObject *ext_answer_new(const sdb_query *q, const sdb_answer *a, unsigned asked,
                         PyObject *all_moves)
{
	answer_object *o = PyObject_New(answer_object, &ext_answer_type);
	if (!o)
		return NULL;
	o->q = *q;
	o->a = *a;
	o->asked = asked;
	o->all_moves = Py_XNewRef(all_moves);
	/* the library's strings live only as long as the database: copy them */
	o->heuristic_name = a->method == SDB_METHOD_SEARCH ? maybe_str(a->heuristic_name) : NULL;
	o->note = maybe_str(a->note);
	return (PyObject *)o;
}

static void answer_dealloc(answer_object *o)
{
	Py_XDECREF(o->all_moves);
	Py_XDECREF(o->heuristic_name);
	Py_XDECREF(o->note);
	PyObject_Free(o);
}

static PyObject *size_str(const sdb_board *b)
{
	return PyUnicode_FromFormat("%dx%d", b->w, b->h);
}

static PyObject *moves_letters(unsigned mask)
{
	char s[5];
	int n = 0;
	for (int m = 0; m < 4; m++)
		if (mask >> m & 1)
			s[n++] = sdb_move_letter(m);
	return PyUnicode_FromStringAndSize(s, n);
}

#define SOLVED_OR_NONE(o) do { if (!(o)->a.solvable) Py_RETURN_NONE; } while (0)

static PyObject *get_start(answer_object *o, void *c) { (void)c; return ext_board_str(&o->q.start); }
static PyObject *get_goal(answer_object *o, void *c) { (void)c; return ext_board_str(&o->q.goal); }
static PyObject *get_size(answer_object *o, void *c) { (void)c; return size_str(&o->q.start); }
static PyObject *get_solvable(answer_object *o, void *c) { (void)c; return PyBool_FromLong(o->a.solvable); }

static PyObject *get_distance(answer_object *o, void *c)
{
	(void)c;
	SOLVED_OR_NONE(o);
	return PyLong_FromLong(o->a.distance);
}

static PyObject *get_best_move(answer_object *o, void *c)
{
	(void)c;
	if (!o->a.solvable || o->a.best_move < 0)
		Py_RETURN_NONE;
	char m = sdb_move_letter(o->a.best_move);
	return PyUnicode_FromStringAndSize(&m, 1);
}

/* A sequence of letters as the answer's metric writes it. */
static PyObject *moves_str(const answer_object *o, const char *letters)
{
	char runs[2 * SDB_MAX_MOVES + 1];
	if (o->asked & ASK_MTM && sdb_moves_format_mtm(runs, sizeof runs, letters) >= 0)
		return PyUnicode_FromString(runs);
	return PyUnicode_FromString(letters);
}

static PyObject *get_moves(answer_object *o, void *c)
{
	(void)c;
	SOLVED_OR_NONE(o);
	return moves_str(o, o->a.moves);
}

static PyObject *get_metric(answer_object *o, void *c)
{
	(void)c;
	return PyUnicode_FromString(sdb_metric_name(o->asked & ASK_MTM ? SDB_METRIC_MTM
	                                                             : SDB_METRIC_STM));
}

static PyObject *get_best_moves(answer_object *o, void *c)
{
	(void)c;
	if (!o->a.solvable || !(o->asked & HAVE_BEST_MOVES))
		Py_RETURN_NONE;
	return moves_letters(o->a.best_moves);
}

static PyObject *get_solutions(answer_object *o, void *c)
{
	(void)c;
	if (!o->a.solvable || !(o->asked & ASK_COUNT))
		Py_RETURN_NONE;
	char text[48];
	sdb_count_format(text, sizeof text, &o->a.solutions);
	return PyLong_FromString(text, NULL, 10);
}

static PyObject *get_all_moves(answer_object *o, void *c)
{
	(void)c;
	if (!o->a.solvable || !o->all_moves)
		Py_RETURN_NONE;
	if (!(o->asked & ASK_MTM))
		return PyList_GetSlice(o->all_moves, 0, PyList_GET_SIZE(o->all_moves));
	/* kept as letters (to_dict() hands them to the library): written here */
	const Py_ssize_t n = PyList_GET_SIZE(o->all_moves);
	PyObject *list = PyList_New(n);
	for (Py_ssize_t i = 0; list && i < n; i++) {
		const char *letters = PyUnicode_AsUTF8(PyList_GET_ITEM(o->all_moves, i));
		PyObject *m = letters ? moves_str(o, letters) : NULL;
		if (!m)
			Py_CLEAR(list);
		else
			PyList_SET_ITEM(list, i, m);
	}
	return list;
}

/* The boards along the moves, or the tiles that slide: both replay them. */
static PyObject *replay(const answer_object *o, int tiles)
{
	const char *moves = o->a.moves;
	PyObject *list = PyList_New(0);
	sdb_board b = o->q.start;
	for (int k = 0; list; k++) {
		PyObject *item = NULL;
		if (!tiles)
			item = ext_board_str(&b);
		if (!moves[k]) {
			if (item && PyList_Append(list, item))
				Py_CLEAR(list);
			Py_XDECREF(item);
			break;
		}
		const int m = sdb_move_from_letter(moves[k]);
		if (tiles)
			item = PyLong_FromLong(sdb_move_tile(&b, m));
		if (!item || PyList_Append(list, item))
			Py_CLEAR(list);
		Py_XDECREF(item);
		sdb_board_apply(&b, m);
	}
	return list;
}

static PyObject *get_path(answer_object *o, void *c)
{
	(void)c;
	if (!o->a.solvable)
		Py_RETURN_NONE;
	return replay(o, 0);
}

static PyObject *get_tiles(answer_object *o, void *c)
{
	(void)c;
	if (!o->a.solvable)
		Py_RETURN_NONE;
	return replay(o, 1);
}

static PyObject *get_method(answer_object *o, void *c)
{
	(void)c;
	switch (o->a.method) {
	case SDB_METHOD_TABLE: return PyUnicode_FromString("table");
	case SDB_METHOD_SEARCH: return PyUnicode_FromString("search");
	default: Py_RETURN_NONE;
	}
}

static PyObject *get_nodes(answer_object *o, void *c)
{
	(void)c;
	if (o->a.method != SDB_METHOD_SEARCH)
		Py_RETURN_NONE;
	return PyLong_FromUnsignedLongLong(o->a.nodes);
}

static PyObject *get_heuristic(answer_object *o, void *c)
{
	(void)c;
	if (o->a.method != SDB_METHOD_SEARCH)
		Py_RETURN_NONE;
	return PyLong_FromLong(o->a.heuristic);
}

static PyObject *get_heuristic_name(answer_object *o, void *c)
{
	(void)c;
	return Py_NewRef(o->heuristic_name ? o->heuristic_name : Py_None);
}

static PyObject *get_note(answer_object *o, void *c)
{
	(void)c;
	return Py_NewRef(o->note ? o->note : Py_None);
}

static PyGetSetDef answer_getset[] = {
	{ "start", (getter)get_start, NULL, "The start board, as the CLI writes it: '1 2 3 0 8 4 7 6 5'.", NULL },
	{ "goal", (getter)get_goal, NULL, "The goal board (the standard goal, blank last, when none was given).", NULL },
	{ "size", (getter)get_size, NULL, "The board size, 'WxH'.", NULL },
	{ "metric", (getter)get_metric, NULL,
	  "'stm' (one tile a move) or 'mtm' (a slide of a line of tiles a move; moves written "
	  "'r3ul2').", NULL },
	{ "solvable", (getter)get_solvable, NULL, "Whether the goal can be reached from the start.", NULL },
	{ "distance", (getter)get_distance, NULL, "The optimal number of moves; None if unsolvable.", NULL },
	{ "best_move", (getter)get_best_move, NULL,
	  "The first move of an optimal solution ('u', 'd', 'l' or 'r': where the blank goes); "
	  "None at the goal or if unsolvable.", NULL },
	{ "moves", (getter)get_moves, NULL,
	  "An optimal move sequence ('ru...', in MTM 'r3ul2'; '' at the goal); None if unsolvable.",
	  NULL },
	{ "best_moves", (getter)get_best_moves, NULL,
	  "Every first move of an optimal solution, in u d l r order (solve(..., all_best=True) or "
	  "solutions=True); else None.", NULL },
	{ "solutions", (getter)get_solutions, NULL,
	  "The number of distinct optimal move sequences, exact (solve(..., solutions=True)); else None.", NULL },
	{ "all_moves", (getter)get_all_moves, NULL,
	  "The optimal move sequences in u < d < l < r order, at most `limit` (solve(..., all=True)); "
	  "else None.", NULL },
	{ "path", (getter)get_path, NULL,
	  "The boards from the start to the goal along `moves` (len: distance + 1); None if unsolvable.", NULL },
	{ "tiles", (getter)get_tiles, NULL,
	  "The tile that slides at each move of `moves`; None if unsolvable.", NULL },
	{ "method", (getter)get_method, NULL,
	  "'table' (read from a full table), 'search' (IDA*), or None (unsolvable: no work).", NULL },
	{ "nodes", (getter)get_nodes, NULL, "Nodes the search expanded; None unless searched.", NULL },
	{ "heuristic", (getter)get_heuristic, NULL,
	  "The heuristic's value at the start; None unless searched.", NULL },
	{ "heuristic_name", (getter)get_heuristic_name, NULL,
	  "The pattern-database set searched with, or 'manhattan+linear-conflicts'; None unless searched.", NULL },
	{ "note", (getter)get_note, NULL,
	  "Why a weaker heuristic was used, with the command that builds a set; else None.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyObject *answer_to_dict(answer_object *o, PyObject *noargs)
{
	(void)noargs;
	/* the library's fields, as slidedb-lookup --json shows them */
	static const unsigned wanted[][2] = {
		{ ASK_TILES, SDB_FIELDS_TILES }, { ASK_BEST_MOVES, SDB_FIELDS_BEST_MOVES },
		{ ASK_COUNT, SDB_FIELDS_SOLUTIONS }, { ASK_ALL, SDB_FIELDS_ALL_MOVES },
		{ ASK_PATH, SDB_FIELDS_PATH },
	};
	sdb_fields_opts fo = { 0 };
	for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++)
		if (o->asked & wanted[i][0])
			fo.want |= wanted[i][1];
	if (o->asked & ASK_MTM)
		fo.want |= SDB_FIELDS_MTM;
	/* the sequences as the library takes them: each ended by '\n' */
	PyObject *all = NULL;
	if (o->all_moves) {
		PyObject *sep = PyUnicode_FromString("\n");
		PyObject *joined = sep ? PyUnicode_Join(sep, o->all_moves) : NULL;
		Py_XDECREF(sep);
		all = joined ? PyUnicode_FromFormat("%U\n", joined) : NULL;
		Py_XDECREF(joined);
		if (!all || !(fo.all = PyUnicode_AsUTF8(all))) {
			Py_XDECREF(all);
			return NULL;
		}
	}
	ext_fields b;
	if (ext_fields_begin(&b))
		sdb_answer_fields(&o->q, &o->a, &fo, ext_field_put, &b);
	Py_XDECREF(all);
	return ext_fields_end(&b);
}

static PyObject *answer_repr(answer_object *o)
{
	char start[3 * SDB_MAX_CELLS], goal[3 * SDB_MAX_CELLS];
	sdb_board_format(start, sizeof start, &o->q.start);
	sdb_board_format(goal, sizeof goal, &o->q.goal);
	if (!o->a.solvable)
		return PyUnicode_FromFormat("Answer(start='%s', goal='%s', solvable=False)", start, goal);
	char best[8] = "None";
	if (o->a.best_move >= 0)
		snprintf(best, sizeof best, "'%c'", sdb_move_letter(o->a.best_move));
	PyObject *moves = moves_str(o, o->a.moves);
	if (!moves)
		return NULL;
	PyObject *r = PyUnicode_FromFormat("Answer(start='%s', goal='%s', distance=%d, best_move=%s, "
	                                   "moves=%R%s)", start, goal, o->a.distance, best, moves,
	                                   o->asked & ASK_MTM ? ", metric='mtm'" : "");
	Py_DECREF(moves);
	return r;
}

static PyMethodDef answer_methods[] = {
	{ "to_dict", (PyCFunction)answer_to_dict, METH_NOARGS,
	  "to_dict($self, /)\n--\n\n"
	  "The answer as a dict with the keys and values of `slidedb-lookup --json` for the same\n"
	  "options (json.dumps() of it is the CLI's object)." },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject ext_answer_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "slidedb.Answer",
	.tp_basicsize = sizeof(answer_object),
	.tp_dealloc = (destructor)answer_dealloc,
	.tp_repr = (reprfunc)answer_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "The answer to one (start, goal) question, made by Database.solve().\n\n"
	          "Its attributes are the fields of `slidedb-lookup --json`; to_dict() gives them as\n"
	          "the CLI's object. Fields that were not asked for (best_moves, solutions,\n"
	          "all_moves) are None, as are distance, best_move and moves when the pair is\n"
	          "unsolvable.",
	.tp_methods = answer_methods,
	.tp_getset = answer_getset,
};

/* Check: the checker's verdict on one move sequence. */
typedef struct {
	PyObject_HEAD
	sdb_query q;
	sdb_check c;
	PyObject *moves;
	int metric;           /* enum sdb_metric the length counts in */
} check_object;

PyObject *ext_check_new(const sdb_query *q, const sdb_check *c, PyObject *moves, int metric)
{
	check_object *o = PyObject_New(check_object, &ext_check_type);
	if (!o)
		return NULL;
	o->q = *q;
	o->c = *c;
	o->metric = metric;
	o->moves = Py_NewRef(moves);
	return (PyObject *)o;
}

static void check_dealloc(check_object *o)
{
	Py_DECREF(o->moves);
	PyObject_Free(o);
}

static PyObject *int_or_none(int v, int none)
{
	if (none)
		Py_RETURN_NONE;
	return PyLong_FromLong(v);
}

static PyObject *cget_start(check_object *o, void *c) { (void)c; return ext_board_str(&o->q.start); }
static PyObject *cget_goal(check_object *o, void *c) { (void)c; return ext_board_str(&o->q.goal); }
static PyObject *cget_size(check_object *o, void *c) { (void)c; return size_str(&o->q.start); }
static PyObject *cget_moves(check_object *o, void *c) { (void)c; return Py_NewRef(o->moves); }
static PyObject *cget_solvable(check_object *o, void *c) { (void)c; return PyBool_FromLong(o->c.solvable); }
static PyObject *cget_legal(check_object *o, void *c) { (void)c; return PyBool_FromLong(o->c.legal); }
static PyObject *cget_illegal_step(check_object *o, void *c) { (void)c; return int_or_none(o->c.illegal_step, o->c.legal); }
static PyObject *cget_reaches_goal(check_object *o, void *c) { (void)c; return PyBool_FromLong(o->c.reaches_goal); }
static PyObject *cget_length(check_object *o, void *c) { (void)c; return PyLong_FromLong(o->c.length); }
static PyObject *cget_distance(check_object *o, void *c) { (void)c; return int_or_none(o->c.distance, !o->c.solvable); }
static PyObject *cget_optimal(check_object *o, void *c) { (void)c; return PyBool_FromLong(o->c.optimal); }
static PyObject *cget_end_distance(check_object *o, void *c) { (void)c; return int_or_none(o->c.end_distance, !o->c.solvable); }
static PyObject *cget_end(check_object *o, void *c) { (void)c; return ext_board_str(&o->c.end); }

static PyObject *cget_verdict(check_object *o, void *c)
{
	(void)c;
	char text[96];
	sdb_check_verdict(text, sizeof text, &o->c);
	return PyUnicode_FromString(text);
}

static PyGetSetDef check_getset[] = {
	{ "start", (getter)cget_start, NULL, "The start board.", NULL },
	{ "goal", (getter)cget_goal, NULL, "The goal board.", NULL },
	{ "size", (getter)cget_size, NULL, "The board size, 'WxH'.", NULL },
	{ "moves", (getter)cget_moves, NULL, "The move sequence judged.", NULL },
	{ "solvable", (getter)cget_solvable, NULL, "Whether the goal can be reached at all.", NULL },
	{ "legal", (getter)cget_legal, NULL, "Whether every move stays on the board.", NULL },
	{ "illegal_step", (getter)cget_illegal_step, NULL,
	  "The 1-based step of the first move off the board; None when legal.", NULL },
	{ "reaches_goal", (getter)cget_reaches_goal, NULL, "Legal, and the last board is the goal.", NULL },
	{ "length", (getter)cget_length, NULL, "The number of moves.", NULL },
	{ "distance", (getter)cget_distance, NULL, "The optimal distance of the start; None if unsolvable.", NULL },
	{ "optimal", (getter)cget_optimal, NULL, "Reaches the goal in the optimal number of moves.", NULL },
	{ "end_distance", (getter)cget_end_distance, NULL,
	  "The distance to the goal from where the replay stopped; None if unsolvable.", NULL },
	{ "end", (getter)cget_end, NULL, "The board where the replay stopped (the last legal one).", NULL },
	{ "verdict", (getter)cget_verdict, NULL,
	  "The verdict as `slidedb-lookup check` prints it: 'optimal', 'valid, K moves longer than\n"
	  "optimal', \"illegal move 'u' at step 3\", 'does not reach the goal (ends K moves away)'\n"
	  "or 'unsolvable'.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyObject *check_to_dict(check_object *o, PyObject *noargs)
{
	(void)noargs;
	const char *moves = PyUnicode_AsUTF8(o->moves);
	ext_fields b;
	if (!moves)
		return NULL;
	const sdb_fields_opts fo = { o->metric == SDB_METRIC_MTM ? SDB_FIELDS_MTM : 0, NULL, 0 };
	if (ext_fields_begin(&b))
		sdb_check_fields(&o->q, moves, &o->c, &fo, ext_field_put, &b);
	return ext_fields_end(&b);
}

static PyObject *check_repr(check_object *o)
{
	char text[96];
	sdb_check_verdict(text, sizeof text, &o->c);
	return PyUnicode_FromFormat("Check(moves=%R, verdict='%s')", o->moves, text);
}

static PyMethodDef check_methods[] = {
	{ "to_dict", (PyCFunction)check_to_dict, METH_NOARGS,
	  "to_dict($self, /)\n--\n\nThe verdict as a dict with the keys and values of "
	  "`slidedb-lookup check --json`." },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject ext_check_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "slidedb.Check",
	.tp_basicsize = sizeof(check_object),
	.tp_dealloc = (destructor)check_dealloc,
	.tp_repr = (reprfunc)check_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "The verdict on one move sequence, made by Database.check(): what an online judge\n"
	          "says of a contestant's answer. Attributes are the fields of\n"
	          "`slidedb-lookup check --json`.",
	.tp_methods = check_methods,
	.tp_getset = check_getset,
};
