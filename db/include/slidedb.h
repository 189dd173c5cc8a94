/* SPDX-License-Identifier: MIT */
/** @file slidedb.h
 * @brief slidedb: exact distance databases for sliding-tile puzzles.
 *
 * slidedb precomputes, once, the exact distance from every reachable state of a
 * sliding-tile puzzle (the 8-puzzle on 3x3, and every board of up to
 * #SDB_MAX_FULL_CELLS cells)
 * to a goal, stores it in an LMDB file, and then answers optimal-move questions
 * with O(1) reads straight out of the memory map.
 *
 * This header is the whole public API. Every function is documented with its
 * parameters, what it returns and the errors it can return: the header is
 * the manual, as LMDB's lmdb.h is, which is why it is long (one file to
 * include and to read; slidedb_engine.h holds what table builders need).
 *
 * @section conventions Conventions
 *  - Names are sdb_<module>_<verb>, the module the thing the function
 *    makes or works on: board, move, rank, sym, db, table, query, answer,
 *    check, count, random, states, heuristic, batch, error
 *    (slidedb_engine.h adds file, frame, writer, shard, pattern, partition,
 *    split, engine). Two keep the C library's form, as LMDB's
 *    mdb_strerror() and mdb_version() do: sdb_strerror() (strerror(3)'s)
 *    and sdb_version(), names a reader knows at sight. Output parameters
 *    come first.
 *  - Functions that can fail return 0 (#SDB_OK) on success or a negative
 *    SDB_E* code. sdb_strerror() gives the code's text and sdb_error_detail()
 *    a one-line description of the last failure in the calling thread (the
 *    input that was wrong and what is wrong with it).
 *  - A board is W columns by H rows, written "WxH"; cells are numbered
 *    row-major from 0 at the top left. A cell holds a tile 1 .. W*H-1 or the
 *    blank, 0.
 *  - A move is named by the direction the @b blank travels: u d l r (the
 *    convention of POJ 1077).
 *  - The library reads two settings of the user's from the environment, and
 *    nothing else: SLIDEDB_DB (sdb_db_default_path()) and
 *    SLIDEDB_BUSY_TIMEOUT (how long sdb_db_open() waits for a compact).
 *    They are the user's, as the database path of every front end is, so
 *    the library, which every front end shares, reads them once for all;
 *    the knobs of the tests are set with sdb_engine_tune()
 *    (slidedb_engine.h), never read here.
 *
 * @section caveats Caveats
 *  - A table pointer (sdb_table_data()) lives exactly as long as the sdb_db
 *    it came from. It points into a read-only memory map: never write
 *    through it.
 *  - An sdb_db opened read-only holds one LMDB read transaction for its whole
 *    life. It sees the database as it was when it was opened; a writer that
 *    commits meanwhile is not blocked. Because the reader may still be reading
 *    the pages of a table the writer replaces or removes, LMDB keeps those
 *    pages until every older reader has closed: a long-lived reader pins them,
 *    and a rebuild while it is open grows the file by a whole copy of the
 *    table (sdb_db_compact() gives the space back). Reopen to see new tables.
 *  - Do not open the same database file twice in one process for writing,
 *    and do not use an sdb_db across fork() (both are LMDB rules).
 *  - A database file is never rewritten in place: a writer's tables appear
 *    all at once when sdb_writer_commit() returns, or not at all.
 *  - One sdb_db may be used by several threads for reading (a read-only
 *    handle is not written after sdb_db_open() returns); an sdb_writer
 *    belongs to the thread that began it.
 *  - Nothing read from a database file is trusted: LMDB's pages are checked
 *    before LMDB reads them, catalog records carry a CRC-32, and a table's
 *    bytes are checked against their CRC-32 4 KiB at a time, the first time
 *    the process reads them (pattern sets whole, before their first use).
 *    A damaged file is an error (#SDB_ECORRUPT naming what is damaged),
 *    never a crash or a wrong answer. sdb_table_data() hands out the bytes
 *    unchecked: a solver that reads them directly checks them with
 *    sdb_table_verify() first, or reads through sdb_table_distance().
 *  - Every handle holds a shared flock(2) on the database file, and
 *    sdb_db_compact() an exclusive one: a compact runs only when no other
 *    process has the file open, and sdb_db_open() during a compact waits
 *    for it ($SLIDEDB_BUSY_TIMEOUT seconds, default 60).
 */
#ifndef SLIDEDB_H
#define SLIDEDB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks what the library exports: every function this header and
 * slidedb_engine.h declare, and nothing else (it is built with hidden
 * visibility). */
#if defined(__GNUC__) && !defined(SDB_API)
#define SDB_API __attribute__((visibility("default")))
#elif !defined(SDB_API)
#define SDB_API
#endif

/** @name Version */
/**@{*/
#define SDB_VERSION_MAJOR 0
#define SDB_VERSION_MINOR 3
#define SDB_VERSION_PATCH 0
#define SDB_VERSION_STRING "0.3.0"
/** Version of the on-disk format (5: boards up to 8x8; 6: pattern tables
 * stored order by order, sdb_table_layout() in slidedb_engine.h). Files of
 * versions 2 to 5 are read, and converted to this version by the first
 * write to them (their tables keep the layout they were built in); any
 * other version is refused with #SDB_EVERSION. */
#define SDB_FORMAT_VERSION 6

/** @brief The library's version at run time, e.g. "0.1.0". */
SDB_API const char *sdb_version(void);
/**@}*/

/** @name Errors */
/**@{*/
#define SDB_OK 0
#define SDB_EINVAL (-1)       /**< invalid argument or malformed input */
#define SDB_ENOMEM (-2)       /**< out of memory */
#define SDB_EIO (-3)          /**< the operating system or LMDB failed */
#define SDB_ENOTFOUND (-4)    /**< no such table, or no database file */
#define SDB_ECORRUPT (-5)     /**< the database is damaged (CRC, truncation) */
#define SDB_EVERSION (-6)     /**< the database has another format version */
#define SDB_EUNSOLVABLE (-7)  /**< the goal cannot be reached from the start */
#define SDB_ETOOBIG (-8)      /**< the board is too large for a full table */
#define SDB_EAMBIGUOUS (-9)   /**< the board size cannot be told from the cells */
#define SDB_ELIMIT (-10)      /**< a search hit its node or time limit */
#define SDB_EEXIST (-11)      /**< a table of that name exists already */
/** The last error code: every code from -1 down to SDB_ELAST has a text. */
#define SDB_ELAST SDB_EEXIST

/** @brief Text of an error code ("invalid input", ...). Never NULL. */
SDB_API const char *sdb_strerror(int err);

/** @brief One-line description of the last failure in the calling thread.
 *
 * Set by every function that returns an error, e.g.
 * "tile 4 appears twice" or "no table for 2x4: build it with
 * `slidedb-gen full 2x4`"; a "build it with" command in it, run as it is,
 * builds what the failed call needed. Every function of this header that
 * can fail empties it when it succeeds, so it never describes an older,
 * unrelated failure. Empty string when the last such call succeeded. */
SDB_API const char *sdb_error_detail(void);
/**@}*/

/** @name Boards and moves */
/**@{*/
/** Largest number of cells of any board (8x8). */
#define SDB_MAX_CELLS 64
/** Longest side of any board. */
#define SDB_MAX_SIDE 8
/** Largest tile the compact notation writes with one character (digits,
 * then a..w; x is the blank): boards of up to 33 cells. */
#define SDB_COMPACT_MAX_TILE 32
/** Largest number of cells of a board that full tables cover (7x2, 2x7:
 * 43.6 billion states, built in two bits per state). */
#define SDB_MAX_FULL_CELLS 14
/** Boards of up to this many cells are answered from their full table only
 * (a missing table is an error naming the command that builds it); larger
 * boards use a full table when the database has one for the goal, else a
 * search on pattern databases. */
#define SDB_TABLE_ONLY_CELLS 12
/** Longest move sequence any answer can hold: more than any 5x5 optimal
 * solution needs (the 24-puzzle's diameter is at most 208). */
#define SDB_MAX_MOVES 255
/** Most groups in one pattern-database set (8x8 in groups of 4 tiles), and
 * in all the sets one heuristic takes the maximum of. */
#define SDB_MAX_GROUPS 16
/** Most pattern-database sets one heuristic takes the maximum of. */
#define SDB_MAX_SETS 4

/** @brief A board: W columns, H rows, W*H cells row-major.
 *
 * Fill it with sdb_board_parse() or sdb_board_set(); the @c blank field
 * caches the blank's cell and is kept up to date by every function here. */
typedef struct sdb_board {
	uint8_t w;                     /**< columns, 2 ..  8 */
	uint8_t h;                     /**< rows, 2 .. 8 */
	uint8_t n;                     /**< cells, w*h <= SDB_MAX_CELLS */
	uint8_t blank;                 /**< the cell that holds 0 */
	uint8_t cell[SDB_MAX_CELLS];   /**< tiles 1..n-1 and 0 for the blank */
} sdb_board;

/** Directions the blank travels. */
enum sdb_move { SDB_UP = 0, SDB_DOWN = 1, SDB_LEFT = 2, SDB_RIGHT = 3 };

/** How moves are counted.
 *
 * In the single-tile metric a move slides one tile into the blank. In the
 * multi-tile metric (what speedsolvers and most puzzle apps count) one move
 * slides every tile between the blank and a chosen tile of its row or
 * column: the blank travels k >= 1 cells in one direction, for one move.
 * A multi-tile move is a run of one letter of the single-tile notation
 * ("rrr", written "r3"), so every answer keeps its moves as letters: its
 * length in the multi-tile metric is the number of runs
 * (sdb_moves_length()). */
enum sdb_metric {
	SDB_METRIC_STM = 0,     /**< single-tile: one tile a move (the default) */
	SDB_METRIC_MTM = 1      /**< multi-tile: one run of a row or column a move */
};

/** @brief The name of a metric: "stm", "mtm", or NULL if invalid. */
SDB_API const char *sdb_metric_name(int metric);

/** @brief The metric named @p name ("stm" or "mtm", as the command-line
 * options spell them: one spelling everywhere), or -1. */
SDB_API int sdb_metric_from_name(const char *name);

/** @brief Whether W x H is a board slidedb models (2 <= W, H <= 8). */
SDB_API int sdb_board_size_valid(int w, int h);

/** @brief Parse "WxH" (e.g. "3x3", also "3X3") into @p w and @p h.
 * @return 0, or #SDB_EINVAL if @p text is not a valid size. */
SDB_API int sdb_board_size_parse(int *w, int *h, const char *text);

/** @brief Parse one board from text.
 *
 * Accepted notations (those of the seed documents):
 *  - numbers separated by spaces, tabs or commas, with 0, x, X, _ or . for
 *    the blank: "1 2 3 x 4 6 7 5 8";
 *  - nested brackets, one inner bracket per row, which give the shape:
 *    "[[1,2,3],[4,0,5]]" is 3 columns by 2 rows; rows of unequal length are
 *    refused ("[[1,2,7],[4,3],[6,5,8,0]]"); one level of brackets is only
 *    punctuation ("[1,2,3,4,0,5]");
 *  - rows on lines of their own (a grid as problem statements draw it,
 *    "1 2 3\nx 4 6\n7 5 8"): each line is a row, which gives the shape;
 *  - a compact string of one character per cell, digits and then letters
 *    a..w (either case) for tiles 10..32 when the board has more than 10
 *    cells: "123804765", "123456789abcdefghijklmno0" (boards of up to 33
 *    cells; larger boards are written as numbers).
 *
 * The size follows from the shape (rows written as brackets or lines) or from
 * the number of cells when @p w and @p h are 0: 4 is 2x2, 9 is 3x3, 16 is 4x4,
 * 25 is 5x5;
 * other counts fit several boards (6 is 2x3 or 3x2) and give #SDB_EAMBIGUOUS.
 * @param[out] b   the board
 * @param[in] text NUL-terminated text
 * @param[in] w, h the expected size, or 0, 0 to infer it
 * @return 0, #SDB_EINVAL (wrong cell count, repeated, missing or out-of-range
 * tile, no blank, unknown notation, unequal rows, a shape other than
 * @p w x @p h), or #SDB_EAMBIGUOUS. */
SDB_API int sdb_board_parse(sdb_board *b, const char *text, int w, int h);

/** @brief Split text into cell values without deciding the board size.
 *
 * Same notations as sdb_board_parse(); the shape is not checked.
 * @param[out] cells up to @p cap values (blank as 0)
 * @param[out] count number of cells found
 * @return 0 or #SDB_EINVAL (unknown character, too many cells). */
SDB_API int sdb_board_cells_parse(uint8_t *cells, int *count, int cap, const char *text);

/** @brief Make a board of size @p w x @p h from @p cells (n = w*h values).
 * @return 0 or #SDB_EINVAL (bad size, repeated, missing or out-of-range tile). */
SDB_API int sdb_board_set(sdb_board *b, int w, int h, const uint8_t *cells);

/** @brief The standard goal of a size: tiles in order with the blank in
 * cell @p blank_cell (the usual goal has it last: blank_cell = w*h-1).
 * @return 0 or #SDB_EINVAL. */
SDB_API int sdb_board_goal(sdb_board *b, int w, int h, int blank_cell);

/** @brief Write a board as space-separated numbers, 0 for the blank
 * ("1 2 3 0 8 4 7 6 5").
 * @return the length written (excluding the NUL), or #SDB_EINVAL if
 * @p cap is too small (3 bytes per cell always suffice). */
SDB_API int sdb_board_format(char *buf, size_t cap, const sdb_board *b);

/** @brief Write one row of a board as a grid shows it: the cells
 * right-aligned in columns as wide as the largest tile, separated by a
 * space, the blank written as @p blank ("1 2 3", " 1  2  3  4", "7 x 8").
 * @return the length written (excluding the NUL), or #SDB_EINVAL if
 * @p cap is too small (3 bytes per column always suffice) or there is no
 * row @p row. */
SDB_API int sdb_board_format_row(char *buf, size_t cap, const sdb_board *b, int row, char blank);

/** @brief Whether two boards are equal (same size, same cells). */
SDB_API int sdb_board_equal(const sdb_board *a, const sdb_board *b);

/** @brief Bit mask of the moves possible on @p b: bit m set when the blank
 * can travel in direction m (enum sdb_move). */
SDB_API unsigned sdb_board_moves(const sdb_board *b);

/** @brief Move the blank one cell in direction @p move.
 * @return 0, or #SDB_EINVAL when the move would leave the board. */
SDB_API int sdb_board_apply(sdb_board *b, int move);

/** @brief Whether @p goal can be reached from @p start.
 *
 * Compares the permutation parity of the tiles (blank skipped, row-major),
 * and for even widths adds the difference of the blank's rows.
 * @return 1 solvable, 0 not, #SDB_EINVAL if the sizes differ. */
SDB_API int sdb_board_solvable(const sdb_board *start, const sdb_board *goal);

/** @brief The tile that slides when the blank travels in direction @p move
 * (it moves the other way, into the blank's cell).
 * @return the tile (1 .. n-1), or -1 when the move would leave the board. */
SDB_API int sdb_move_tile(const sdb_board *b, int move);

/** @brief The letter of a move: 'u', 'd', 'l' or 'r'; '?' if invalid. */
SDB_API char sdb_move_letter(int move);

/** @brief The move named by a letter (u d l r, either case), or -1. */
SDB_API int sdb_move_from_letter(int letter);

/** @brief Read a move sequence: letters u d l r (either case), each
 * optionally followed by a count, a letter taken that many times ("r3" is
 * "rrr": the multi-tile notation); spaces, tabs and commas between moves
 * are skipped. Writes the letters, lower case and NUL-terminated.
 * @param[out] letters  room for @p cap bytes
 * @return the number of letters, or #SDB_EINVAL (a character that is not a
 * move, a count of 0 or above #SDB_MAX_MOVES, or more than cap - 1
 * letters; the detail names the position, 1-based). */
SDB_API int sdb_moves_parse(char *letters, size_t cap, const char *text);

/** @brief Write a letter sequence in the multi-tile notation: each run of
 * one letter as the letter and, for a run longer than one, its length
 * ("rrrull" is "r3ul2"); NUL-terminated. The parser takes it back.
 * @return the length written, or #SDB_EINVAL (@p cap too small: 2 bytes a
 * letter plus 1 always suffice). */
SDB_API int sdb_moves_format_mtm(char *buf, size_t cap, const char *letters);

/** @brief The length of a letter sequence in @p metric: its letters in the
 * single-tile metric, its runs of one letter in the multi-tile metric. */
SDB_API int sdb_moves_length(const char *letters, int metric);
/**@}*/

/** @name Perfect index (full tables)
 *
 * For a board of n <= #SDB_MAX_FULL_CELLS cells, the states reachable from a goal are ranked
 * onto 0 .. n!/2 - 1: blank cell times (n-1)!/2 plus half the lexicographic
 * rank of the tiles read row-major with the blank skipped (the Cantor
 * expansion, halved: reachable tile orders for one blank cell are exactly one
 * parity class, and the last two tiles carry no information). Rank and unrank
 * are O(n), driven by small tables.
 *
 * Which parity class a table holds is its @e class bit: the permutation
 * parity of the tiles XOR (for even widths) the parity of the blank's row.
 * Every move keeps it; sdb_rank_class() computes it. */
/**@{*/
/** @brief Number of reachable states of a W x H board: (W*H)!/2; 0 if
 * W x H is not a board, and UINT64_MAX past 20 cells, where the count
 * does not fit 64 bits (use sdb_rank_count_format()). */
SDB_API uint64_t sdb_rank_count(int w, int h);

/** Bytes that hold any board's count of states as text, with its NUL. */
#define SDB_RANK_COUNT_TEXT 90

/** @brief Write (W*H)!/2, the number of reachable states of a W x H board, in
 * decimal, exact on every board ("181440" for 3x3; 64!/2 on 8x8 has 89
 * digits), NUL-terminated; #SDB_RANK_COUNT_TEXT bytes always suffice. Every
 * front end prints a board's count of states with it.
 * @return the length written (excluding the NUL), or #SDB_EINVAL (not a
 * board, or @p cap too small). */
SDB_API int sdb_rank_count_format(char *buf, size_t cap, int w, int h);

/** @brief The class bit of a board (see above): 0 or 1. */
SDB_API int sdb_rank_class(const sdb_board *b);

/** @brief Index of @p b, in 0 .. sdb_rank_count()-1.
 * @p b must have at most #SDB_MAX_FULL_CELLS cells (not checked). */
SDB_API uint64_t sdb_board_rank(const sdb_board *b);

/** @brief The board of class @p cls whose index is @p index.
 * @return 0, or #SDB_EINVAL if the size is not rankable or the index is out
 * of range. */
SDB_API int sdb_board_unrank(sdb_board *b, int w, int h, int cls, uint64_t index);

/**@}*/

/** @name Databases */
/**@{*/
typedef struct sdb_db sdb_db;

/** Flags of sdb_db_open(). */
#define SDB_RDONLY 0x1  /**< open for reading only (the default is read-write) */
#define SDB_CREATE 0x2  /**< create the file if it does not exist */

/** @brief The database path used when none is given: $SLIDEDB_DB if set and
 * not empty, else "slidedb.lmdb" in the working directory. */
SDB_API const char *sdb_db_default_path(void);

/** @brief Open a database: one LMDB file (plus its "-lock" file).
 *
 * A read-only open checks the file (an LMDB file, not truncated, this
 * format version), reads the catalog and takes one read transaction for the
 * life of the handle: table reads are pointer reads into the memory map.
 * @param[out] db    the handle, to be closed with sdb_db_close()
 * @param[in] path   the file, or NULL for sdb_db_default_path()
 * @param[in] flags  #SDB_RDONLY and/or #SDB_CREATE
 * @return 0, #SDB_ENOTFOUND (no such file and no #SDB_CREATE),
 * #SDB_ECORRUPT (not a slidedb database, truncated, or damaged),
 * #SDB_EVERSION, #SDB_EIO (not a regular file; a compact under way past
 * $SLIDEDB_BUSY_TIMEOUT; the lock file describes another file; the system
 * failed), #SDB_ENOMEM. */
SDB_API int sdb_db_open(sdb_db **db, const char *path, unsigned flags);

/** @brief The `slidedb-gen` command that builds what answers for goals like
 * @p goal need, into the database at @p db_path (NULL: the default path):
 * `slidedb-gen full WxH` for boards with full tables, `slidedb-gen pdb WxH
 * --partition ...` for larger ones, with --goal and --db when they are needed.
 * @p goal NULL: the standard 3x3 goal (the default database).
 * @return the length written, or #SDB_EINVAL if @p cap is too small
 * (1024 bytes always suffice). */
SDB_API int sdb_db_build_hint(char *buf, size_t cap, const char *db_path, const sdb_board *goal);

/** @brief Close a database; every pointer from it becomes invalid. NULL is ok. */
SDB_API void sdb_db_close(sdb_db *db);

/** @brief A fresh snapshot of a database opened read-only: a second handle
 * that reads the file as it is now (tables built since @p db was opened
 * included), sharing @p db's LMDB environment (LMDB allows one per file and
 * process, so never open the same file twice: reopen it).
 *
 * Both handles stay valid and independent; close each with sdb_db_close(),
 * in any order (the environment closes with the last). A long-running
 * reader (a server) reopens when sdb_db_changed() says so, moves new
 * queries to the fresh handle and closes the old one when its last query
 * is done, so that writers can reuse the old snapshot's pages.
 * Thread-safe with respect to the handles sharing the environment.
 * @return 0, #SDB_EINVAL (a read-write handle), #SDB_ECORRUPT,
 * #SDB_EVERSION, #SDB_EIO, #SDB_ENOMEM. */
SDB_API int sdb_db_reopen(sdb_db **fresh, sdb_db *db);

/** Returned by sdb_db_changed(): the path names another file now. */
#define SDB_DB_REPLACED 2

/** @brief Whether a writer has committed to the file since the snapshot of
 * a read-only @p db was taken: 1 or 0; or #SDB_DB_REPLACED when the path
 * names another file than the one @p db has open (moved or copied over by
 * another program: `slidedb-gen compact` never replaces a file that is
 * open). A replaced file cannot be reopened beside the old one (LMDB's lock
 * file would describe both): close every handle of the old file, then open
 * the path again; sdb_db_reopen() refuses it with #SDB_EIO.
 * Cheap (reads LMDB's lock file and stats the path). */
SDB_API int sdb_db_changed(const sdb_db *db);

/** @brief The path the database was opened with. */
SDB_API const char *sdb_db_path(const sdb_db *db);
/**@}*/

/** @name Tables */
/**@{*/
/** Kinds of table. */
enum sdb_kind {
	SDB_KIND_FULL = 1,      /**< every state of a board: distance and best move */
	SDB_KIND_PATTERN = 2,   /**< one group of an additive pattern-database set */
	/** A full table in the multi-tile metric (enum sdb_metric): its best
	 * move is the first direction (u d l r) whose slide of some length
	 * leads one closer. (A library older than the metric refuses such a table: an
	 * unknown kind.) */
	SDB_KIND_FULL_MTM = 3
};

/** @brief Whether a kind of table is a full table (of either metric). */
SDB_API int sdb_kind_is_full(int kind);

/** Entry formats. */
enum sdb_format {
	/** One byte per state: distance in the low 6 bits, the best move of the
	 * blank (enum sdb_move) in the high 2 bits (meaningless at distance 0). */
	SDB_ENTRY_DIST6_MOVE2 = 1,
	/** One byte per entry: the number of moves of the group's tiles. */
	SDB_ENTRY_DIST8 = 2,
	/** Two entries per byte, low nibble first: the number of moves of the
	 * group's tiles is their Manhattan distance plus twice the nibble. */
	SDB_ENTRY_NIBBLE_MD = 3,
	/** Full tables in two bits per state, four to a byte, low bits first:
	 * the distance mod 3 (3: unreached). A neighbour holding the value minus
	 * one (mod 3) is one move closer, so the distance is the length of the
	 * walk down to the goal: answers read O(distance) entries. */
	SDB_ENTRY_MOD3 = 4
};
/** Longest distance a table records + 1. */
#define SDB_MAX_DISTANCE 128
/** Longest table name + 1. */
#define SDB_NAME_MAX 48

/** What a pattern state keeps of the blank (see slidedb_engine.h). */
enum sdb_blank_mode {
	SDB_BLANK_REGION = 1,   /**< the region of non-group cells that holds it */
	SDB_BLANK_MIN = 2       /**< nothing: the minimum over the regions */
};

/** @brief What the catalog records about a table. */
typedef struct sdb_table_info {
	char name[SDB_NAME_MAX];        /**< e.g. "full-3x3-b0" */
	int kind;                       /**< enum sdb_kind */
	int entry_format;               /**< enum sdb_format */
	sdb_board goal;                 /**< the goal the distances lead to */
	uint64_t states;                /**< number of entries */
	int max_distance;               /**< largest distance */
	uint64_t counts[SDB_MAX_DISTANCE]; /**< states at each distance */
	uint32_t crc32;                 /**< CRC-32 (zlib) of the entries */
	int64_t built_at;               /**< build time, seconds since 1970 (UTC) */
	double build_seconds;           /**< wall time the build took */
	int threads;                    /**< threads the build used */
	char tool_version[16];          /**< version of the tool that built it */
	uint32_t format_version;        /**< #SDB_FORMAT_VERSION when built */
	/* Pattern tables only (zero for full tables): */
	char set[SDB_NAME_MAX];         /**< the set it belongs to, e.g. "pdb-4x4-b0-7-8" */
	uint64_t pattern;               /**< bit t set for each tile t of the group
	                                     (tiles of the canonical goal) */
	int blank_mode;                 /**< enum sdb_blank_mode */
	int group, ngroups;             /**< number in the set (0-based; shown as
	                                     "g0", "group 0" everywhere), set size */
	uint64_t set_tiles;             /**< bit t set for each tile of any group
	                                     of the set: tiles outside it are left
	                                     out (a partial partition) */
} sdb_table_info;

/** @brief The metric a table's distances are in (enum sdb_metric): MTM for
 * #SDB_KIND_FULL_MTM, else STM. */
SDB_API int sdb_table_metric(const sdb_table_info *info);

typedef struct sdb_table sdb_table;

/** @brief Number of tables in the database. */
SDB_API int sdb_table_count(const sdb_db *db);

/** @brief The i-th table (0 <= i < sdb_table_count()), in name order.
 * @return the table, or NULL when @p i is out of range. */
SDB_API const sdb_table *sdb_table_at(const sdb_db *db, int i);

/** @brief The table with this name, or NULL (sdb_error_detail() says why). */
SDB_API const sdb_table *sdb_table_find(const sdb_db *db, const char *name);

/** @brief The catalog entry of a table. */
SDB_API const sdb_table_info *sdb_table_meta(const sdb_table *t);

/** @brief Why a table cannot be used, or NULL: its catalog entry is damaged
 * (its meta then holds only a printable form of its name, and its kind is
 * 0: sdb_db_remove() still removes it), or (handles opened read-only) its
 * entries or their checksums are missing or of the wrong size. */
SDB_API const char *sdb_table_problem(const sdb_table *t);

/** @brief Bytes a table's entries take: its state count, half of it
 * (rounded up) for #SDB_ENTRY_NIBBLE_MD, a quarter for #SDB_ENTRY_MOD3. */
SDB_API uint64_t sdb_table_bytes(const sdb_table_info *info);

/** @brief The entries of a table: sdb_table_bytes() bytes, read
 * zero-copy from the memory map (pages are read on first touch only).
 * @return NULL if the data cannot be read (sdb_error_detail() says why), and
 * for a table stored in chunks (sdb_table_chunks() > 1): read those with
 * sdb_table_chunk(). */
SDB_API const uint8_t *sdb_table_data(const sdb_table *t);

/** @brief Number of chunks the entries are stored in: 1, except for tables
 * over 4 GiB (the largest LMDB value), which are stored in chunks of
 * 128 MiB (two-bit tables of 14-cell boards).
 * @return the number, or #SDB_ECORRUPT (a chunk is missing or of the wrong
 * size; sdb_error_detail() says which) or #SDB_EINVAL (a handle that is not
 * read-only). */
SDB_API int sdb_table_chunks(const sdb_table *t);

/** @brief Chunk @p i of a table's entries, read zero-copy as
 * sdb_table_data(): the entries are the chunks one after another; every
 * chunk but the last has the same size, a power of two.
 * @param[out] bytes  the chunk's size (0 on error)
 * @return the chunk, or NULL (sdb_error_detail() says why). */
SDB_API const uint8_t *sdb_table_chunk(const sdb_table *t, int i, uint64_t *bytes);

/** @brief sdb_table_recount() of a table as stored, whole or in chunks.
 * @return 0, #SDB_ECORRUPT (entries unreadable), or as sdb_table_recount(). */
SDB_API int sdb_table_count_entries(uint64_t *counts, const sdb_table *t);

/** @brief Count a table's entries by distance from its bytes (nibble tables
 * through their groups' Manhattan distances): what sdb_table_expected_counts()
 * says. Unreached entries (0xff of the one-byte formats) are not counted.
 * #SDB_ENTRY_MOD3 tables know distances mod 3 only: counts[r], r < 3, is the
 * number of states at distances r, r+3, r+6, ... Reads the whole table.
 * @param[out] counts SDB_MAX_DISTANCE counters
 * @return 0, #SDB_EINVAL (unknown format or bad metadata), #SDB_ENOMEM. */
SDB_API int sdb_table_recount(uint64_t *counts, const sdb_table_info *info, const uint8_t *data);

/** @brief What sdb_table_recount() must find for a table whose catalog is
 * @p info: its counts per distance, folded mod 3 for #SDB_ENTRY_MOD3. */
SDB_API void sdb_table_expected_counts(uint64_t *counts, const sdb_table_info *info);

/** @brief Recompute a table's CRC-32 and compare it with the catalog.
 * Reads the whole table; a table of 32 MiB or more is read on threads of
 * its own, one per core the process may run on (its CPU affinity, at most
 * 16), joined before the call returns. @return 0 or #SDB_ECORRUPT. */
SDB_API int sdb_table_verify(const sdb_table *t);

/** @brief Called as a long operation goes: @p done of @p total (bytes,
 * or entries: each function says). */
typedef void (*sdb_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/** How far sdb_table_prove() proved a table. */
enum sdb_proof {
	/** Not proved: the library has no proof for the table's format. A
	 * #SDB_BLANK_MIN pattern group holds the least value over the blank's
	 * regions, which its neighbours do not bound (genuine groups have
	 * entries several moves above a neighbour's); a two-bit table in the
	 * multi-tile metric passes local checks with an entry raised by one
	 * (neighbours may be equal there). `slidedb-gen import` proves both by
	 * building them again and comparing every byte. */
	SDB_PROOF_NONE = 0,
	/** Every entry is the exact distance (and every best move the first
	 * move one closer): full tables of #SDB_ENTRY_DIST6_MOVE2 and
	 * #SDB_BLANK_REGION pattern groups. */
	SDB_PROOF_EXACT = 1,
	/** A local check, not a proof: #SDB_ENTRY_MOD3 tables know distances
	 * mod 3 only. Every entry is one step (mod 3) from each neighbour and
	 * has one a step closer, which catches any entry out of step with its
	 * neighbours; values that step consistently mod 3 around a cycle of the
	 * puzzle's graph would pass. */
	SDB_PROOF_LOCAL = 2
};

/** @brief Options of sdb_table_prove(). Start from #SDB_PROVE_OPTS_INIT. */
typedef struct sdb_prove_opts {
	unsigned version;          /**< #SDB_PROVE_OPTS_VERSION */
	int threads;               /**< threads of its own (at most 16); 0: one per
	                                core the process may run on */
	sdb_progress_fn progress;  /**< NULL, or called from the calling thread
	                                with the entries proved so far and all */
	void *ctx;                 /**< handed to @p progress */
} sdb_prove_opts;
#define SDB_PROVE_OPTS_VERSION 1
#define SDB_PROVE_OPTS_INIT { SDB_PROVE_OPTS_VERSION, 0, NULL, NULL }

/** @brief Prove a table's entries as stored, each against its neighbours:
 * what catches a table whose bytes were altered and its checksums made to
 * match (an edited export or file), which sdb_table_verify() cannot.
 *
 * For whole distances (full tables of #SDB_ENTRY_DIST6_MOVE2, pattern groups
 * of #SDB_BLANK_REGION, whose moves are those of the group's tiles with the
 * blank's region part of the state) the rules prove every entry exact: the
 * goal alone holds 0; no entry is more than one above a neighbour (none
 * exceeds its true distance); every other entry has a neighbour exactly one
 * below (following those reaches the goal: none is below it); an unreached
 * entry has no reached neighbour; and a best move is the first direction
 * (u d l r) to a neighbour one closer. #SDB_ENTRY_MOD3 tables get the same
 * rules mod 3 (#SDB_PROOF_LOCAL). The counts per distance are recounted
 * against the catalog's. The entries are read as stored, not checked
 * against their CRC-32 (sdb_table_verify() does that).
 * Reads every entry and its neighbours (bench/RESULTS.md has the times); a
 * pattern group stored order by order is first copied block by block (its
 * size again in memory), so that a block's neighbours are read from the
 * cache.
 * @param[out] proof  enum sdb_proof: how far it went (#SDB_PROOF_NONE: a
 *                    table it cannot prove, nothing was read)
 * @param[in] opts    threads and progress (NULL: the defaults)
 * @return 0; #SDB_ECORRUPT when an entry contradicts its neighbours or the
 * counts the catalog (sdb_error_detail() names the table, the entry, for a full
 * table its board, and what is wrong), or when the entries cannot be read;
 * #SDB_ENOMEM; #SDB_EINVAL (options of another version). */
SDB_API int sdb_table_prove(int *proof, const sdb_table *t, const sdb_prove_opts *opts);

/** @brief A pattern table's tiles as people number them: the tiles of the
 * class's ordered goal (the tiles in order, the blank last when the standard
 * goal "1 2 ... 0" is in the table's class, else in the table's blank cell),
 * which are the tiles typed to build it for that goal. (info->pattern holds
 * them as tiles of the canonical goal, info->goal.)
 * @param[out] tiles     bit t set for each tile t of the group
 * @param[out] left_out  bit t set for each tile no group of the set holds
 * @param[out] goal      the ordered goal they are numbered by
 * @return 0, or #SDB_EINVAL for a full table. */
SDB_API int sdb_table_tiles(uint64_t *tiles, uint64_t *left_out, sdb_board *goal,
                            const sdb_table_info *in);

/** @brief The name a full table of size W x H for the canonical goal with the
 * blank in @p blank_cell is stored under ("full-WxH-bCELL").
 * @return the length, or #SDB_EINVAL if @p cap is too small. */
SDB_API int sdb_table_name_full(char *buf, size_t cap, int w, int h, int blank_cell);

/** @brief sdb_table_name_full() in @p metric: the multi-tile metric's
 * tables are "full-WxH-mtm-bCELL". */
SDB_API int sdb_table_name_full_metric(char *buf, size_t cap, int w, int h, int blank_cell,
                                       int metric);

/** @brief Distance of @p b in a full table whose goal is the canonical goal
 * of the table (no relabelling, no symmetry): one rank and one byte read
 * (#SDB_ENTRY_MOD3 tables: a walk of the table down to the goal).
 * @p b must be of the table's size and class (not checked): this is the hot
 * path for solvers that use the table directly. The bytes read are checked
 * against their block's CRC-32 the first time (a bit test after that).
 * @return the distance, or #SDB_ECORRUPT when the bytes it depends on are
 * damaged (sdb_error_detail() names them). */
SDB_API int sdb_table_distance(const sdb_table *t, const sdb_board *b);
/**@}*/

/** @name Queries
 *
 * A query is what a person or a judge types: a start board, optionally
 * followed by a goal, in any notation sdb_board_parse() reads. This is the
 * one parser of query lines; the programs and every other client use it. */
/**@{*/
/** @brief A parsed query. */
typedef struct sdb_query {
	sdb_board start;
	sdb_board goal;   /**< the standard goal (blank last) when none was given */
} sdb_query;

/** @brief Read one query.
 *
 * Two boards are told apart as "START ; GOAL", as two words that are each a
 * whole board ("123804765 541203786", "[[1,2],[3,0]] [[1,2],[0,3]]"), as the
 * numbers of both boards in one row (seed 000's input), or, for a grid (rows
 * on lines of their own), as the start's rows followed by the goal's.
 *
 * The size is @p w x @p h when given; else the shape of nested brackets or of
 * a grid; else the number of cells (a square count is the square board).
 * Cells that could be one board of 2m cells or two of m cells are decided by
 * the cells: one board holds tile 2m-1, two boards hold nothing above m-1
 * (16 cells: a 4x4 board or a start and a goal of 2x4). A count that fits
 * several sizes (6: 2x3 or 3x2) is settled by the sizes @p db has tables
 * for, full tables and pattern-database sets alike.
 * @param[out] q     the boards
 * @param[in] text   the query (NUL-terminated; may hold newlines: a grid)
 * @param[in] w, h   the size, or 0, 0 to infer it
 * @param[in] db     the database whose sizes settle ambiguous counts, or NULL
 * @return 0, #SDB_EINVAL (a bad board: sdb_error_detail() says "start: ..." or
 * "goal: ..."), #SDB_EAMBIGUOUS (several sizes fit and the tables do not
 * settle it: the detail lists them). */
SDB_API int sdb_query_parse(sdb_query *q, const char *text, int w, int h, const sdb_db *db);

/** @brief Whether a line of batch input is one row of a grid rather than a
 * whole query.
 *
 * With a size, a line of exactly @p w cells is a row. Without one (0, 0), a
 * line of 2 or 3 cells is (no board is that small); wider grids need the
 * size, since a line of 4 to 8 cells can be a whole board. A batch reader
 * gathers the rows that follow, up to a blank line, a line of another width
 * or the end of the input, and hands them to sdb_query_parse() as one text
 * (one query, one answer).
 * @return the row's width, or 0. */
SDB_API int sdb_query_grid_row(const char *line, int w, int h);
/**@}*/

/** @name Answers
 *
 * Any goal is answered: from the full tables of its size where the board has
 * them (O(1) per step: the goal's blank cell is mapped by a symmetry of the
 * board onto the cell a table was built for, the tiles are relabelled so that
 * the goal becomes that table's goal, and the moves found are mapped back),
 * and by IDA* on the strongest pattern-database set for boards too large for
 * full tables (4x4 to 8x8), or on Manhattan distance with linear conflicts when no
 * set serves the goal. */
/**@{*/
/** How far a search has got: what sdb_poll_fn is shown. */
typedef struct sdb_search_progress {
	uint64_t nodes;          /**< nodes expanded so far */
	int bound;               /**< the current IDA* bound on g + h */
	double seconds;          /**< wall time since the search began */
} sdb_search_progress;

/** @brief Called by a search every few milliseconds (every 16384 nodes):
 * return 0 to go on, anything else to stop it (sdb_answer_search() then returns
 * #SDB_ELIMIT, "search stopped by its caller"). A server stops the searches
 * of a client that has gone; a program shows progress. */
typedef int (*sdb_poll_fn)(void *ctx, const sdb_search_progress *p);

/** Bounds on one search; 0 (NULL) means none. */
typedef struct sdb_solve_limits {
	uint64_t max_nodes;      /**< nodes expanded (with several threads the
	                              search may pass it by a few thousand) */
	double timeout;          /**< seconds */
	sdb_poll_fn poll;        /**< called now and then, or NULL (only ever
	                              from the calling thread) */
	void *poll_ctx;          /**< passed to poll */
	int threads;             /**< threads one search may use (0 or 1: the
	                              caller's only). The answer does not depend
	                              on it: the lexicographically first optimal
	                              sequence; the node count does, a little */
} sdb_solve_limits;

/** @brief A count of move sequences: an unsigned 128-bit integer, exact.
 * (Optimal solutions of a 3x4 board at distance 53 can exceed 2^64 in
 * principle; 128 bits hold any count of sequences of up to 80 moves.) */
typedef struct sdb_count {
	uint64_t hi, lo;         /**< the value is hi * 2^64 + lo */
} sdb_count;

/** @brief Write a count in decimal ("1", "340282366920938463463374607431768211455"),
 * NUL-terminated; 40 bytes always suffice.
 * @return the length written (excluding the NUL), or #SDB_EINVAL if @p cap
 * is too small. */
SDB_API int sdb_count_format(char *buf, size_t cap, const sdb_count *c);

/** How an answer was found. */
enum sdb_method {
	SDB_METHOD_NONE = 0,     /**< no work: an unsolvable pair */
	SDB_METHOD_TABLE = 1,    /**< read from a full table */
	SDB_METHOD_SEARCH = 2    /**< found by IDA* */
};

/** @brief An answer to one (start, goal) question. */
typedef struct sdb_answer {
	int solvable;                  /**< 1 or 0 */
	int distance;                  /**< optimal number of moves, -1 if unsolvable */
	int best_move;                 /**< enum sdb_move, -1 at the goal or if unsolvable */
	char moves[SDB_MAX_MOVES + 1]; /**< optimal sequence "ru...", NUL-terminated;
	                                    filled only when asked for */
	int method;                    /**< enum sdb_method */
	/* Searched answers only (#SDB_METHOD_SEARCH), also a search stopped by
	 * a limit (#SDB_ELIMIT: method, nodes and heuristic say what it did): */
	uint64_t nodes;                /**< nodes expanded */
	int heuristic;                 /**< the heuristic's value at the start */
	const char *heuristic_name;    /**< the set searched with, or
	                                    "manhattan+linear-conflicts" */
	const char *note;              /**< NULL, or why a weaker heuristic was used,
	                                    with the command that builds a set (valid
	                                    as long as the database is open) */
	/* Filled only when asked for (sdb_answer_opts): */
	unsigned best_moves;           /**< bit m set for every move m (enum sdb_move)
	                                    that starts an optimal solution; 0 at the
	                                    goal and when unsolvable */
	sdb_count solutions;           /**< the number of distinct optimal move
	                                    sequences: 1 at the goal, 0 when unsolvable */
} sdb_answer;

/** @brief Options of sdb_answer_query(), sdb_answer_paths() and
 * sdb_check_moves(). Start from #SDB_ANSWER_OPTS_INIT and set what is
 * wanted: fields added later go after these, and the version tells the
 * library which a caller knows (one of another version is #SDB_EINVAL). */
typedef struct sdb_answer_opts {
	unsigned version;           /**< #SDB_ANSWER_OPTS_VERSION */
	int want_moves;             /**< fill a->moves (tables: a walk of the
	                                 table; searches always find them) */
	sdb_solve_limits limits;    /**< bounds on a search (4x4 to 8x8) */
	int want_best_moves;        /**< fill a->best_moves: O(1) from a table; a
	                                 search looks for one solution per first move */
	int want_count;             /**< fill a->solutions (and a->best_moves): a
	                                 table walks the states on optimal paths,
	                                 layer by layer; a search visits every
	                                 optimal sequence, within its limits */
	const char *sets;           /**< the pattern-database sets a search takes
	                                 ("A", or "A+B": the largest bound), or
	                                 NULL for the database's best (see
	                                 sdb_heuristic_open()) */
	int defer_check;            /**< 1: a search's answer may come back while
	                                 its set's check (see sdb_answer_query())
	                                 still runs; the caller then holds every
	                                 answer until sdb_db_checked() passes.
	                                 For batches: their searches run beside
	                                 the check instead of after it */
	int metric;                 /**< enum sdb_metric the answer counts moves
	                                 in: distances, best moves, counts and
	                                 checks (read from version 4). The
	                                 multi-tile metric is answered from its
	                                 own full tables (boards up to
	                                 #SDB_MAX_FULL_CELLS cells); a move of the
	                                 answer is a run of one letter in
	                                 a->moves, and a->best_move and
	                                 a->best_moves name its direction */
} sdb_answer_opts;
#define SDB_ANSWER_OPTS_VERSION 4   /* 2: limits.threads; 3: defer_check; 4: metric
                                       (2 and 3 are read too) */
/** Nothing wanted but the distance and the best move, no limits. */
#define SDB_ANSWER_OPTS_INIT { SDB_ANSWER_OPTS_VERSION, 0, { 0, 0, NULL, NULL, 0 }, 0, 0, NULL, 0, \
	                       SDB_METRIC_STM }

/** @brief What a searched answer for goals like @p goal would say of its
 * heuristic, before any search: NULL when such goals are answered from a
 * full table or with the strongest pattern-database set, else the note
 * sdb_answer.note would carry (no set serves them, with the command that
 * builds one). A program says it before a long search rather than after.
 * Valid as long as @p db is open. */
SDB_API const char *sdb_db_search_note(const sdb_db *db, const sdb_board *goal);

/** @brief Find the full table that answers goals like @p goal.
 * @return the table, or NULL with #SDB_ENOTFOUND / #SDB_ETOOBIG in
 * sdb_error_detail() naming the `slidedb-gen` command that builds it. */
SDB_API const sdb_table *sdb_table_for_goal(const sdb_db *db, const sdb_board *goal);

/** @brief Whether the database has any table (full, or of a pattern set) of
 * size W x H. */
SDB_API int sdb_db_has_size(const sdb_db *db, int w, int h);

/** @brief Answer: distance, best move and (if asked) the whole optimal move
 * sequence from @p start to @p goal, for any board.
 *
 * Boards of up to #SDB_MAX_FULL_CELLS cells are read from their full table:
 * O(1) for the distance and the best move, O(distance) for the sequence,
 * which is walked through the table one read per step and checked on the
 * way (each step must lower the distance by exactly one). Larger boards are
 * solved by IDA* (as sdb_answer_search()) on the strongest pattern-database set that
 * serves the goal, opened once per database and class of goals and kept, or
 * on Manhattan distance with linear conflicts when none does (a->note says
 * so). The set's tables are checked against their CRC-32s (as by
 * sdb_heuristic_open(), once per handle) on a thread of their own while the
 * first search runs, and its answer is given only once they pass (unless
 * sdb_answer_opts.defer_check hands that wait to the caller): a damaged set is
 * #SDB_ECORRUPT for that search and every later one, and stops a long
 * search within 16,384 nodes of the check's end.
 * Thread-safe: one sdb_db may answer on several threads at once.
 * @param[in] opts  NULL: the moves, no limits
 * @return 0 (also for an unsolvable pair: a->solvable is 0), #SDB_EINVAL
 * (sizes differ), #SDB_ENOTFOUND (no full table for this goal; the detail
 * names the command that builds it), #SDB_ECORRUPT (the table contradicts
 * itself on the way, or a pattern set fails its check), #SDB_ELIMIT (a
 * search hit a limit: a->nodes says how many nodes it expanded), #SDB_ENOMEM. */
SDB_API int sdb_answer_query(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                             const sdb_board *goal, const sdb_answer_opts *opts);

/** @brief Wait for the checks of the pattern sets @p db has opened for
 * answers (sdb_answer_query() starts each beside its first search).
 * A caller that set sdb_answer_opts.defer_check gives no answer before this
 * passes. Thread-safe.
 * @return 0 when every one passed (or none was opened), else #SDB_ECORRUPT
 * (the detail names the damaged table). */
SDB_API int sdb_db_checked(const sdb_db *db);

/** @brief Called with each optimal sequence by sdb_answer_paths().
 * @param moves  the sequence, NUL-terminated ("" when start is the goal);
 *               valid during the call only
 * @return 0 to go on, non-zero to stop (sdb_answer_paths() then returns 0) */
typedef int (*sdb_path_fn)(void *ctx, const char *moves);

/** @brief Every optimal move sequence from @p start to @p goal, in
 * lexicographic order of u < d < l < r, at most @p limit of them.
 *
 * Tables give each sequence in O(distance) reads (every state on an optimal
 * path leads on to the goal, so nothing is searched twice); larger boards
 * are searched at the optimal bound found by IDA*, within @p limits.
 * @param[in] limit   the most sequences to give (0: none, only the answer)
 * @param[in] opts    NULL: no limits; want_* fields are ignored
 * @param[out] a      the answer (distance, a first sequence), as from
 *                    sdb_answer_query(); may be NULL
 * @return 0 (also when unsolvable: @p fn is not called), or an error as
 * sdb_answer_query(). */
SDB_API int sdb_answer_paths(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                             const sdb_board *goal, uint64_t limit, const sdb_answer_opts *opts,
                             sdb_path_fn fn, void *ctx);
/**@}*/

/** @name Checking a move sequence
 *
 * What a judge does with a contestant's answer: replay it, then compare it
 * with the optimal distance. */
/**@{*/
/** @brief The verdict on one move sequence. */
typedef struct sdb_check {
	int solvable;            /**< the goal can be reached from the start at all */
	int legal;               /**< every move stays on the board */
	int illegal_step;        /**< 1-based step of the first move off the board, or 0 */
	int illegal_move;        /**< that move (enum sdb_move), or -1 */
	int length;              /**< number of moves in the sequence */
	int reaches_goal;        /**< legal, and the last board is the goal */
	int distance;            /**< optimal distance from the start, -1 if unsolvable */
	int end_distance;        /**< distance from the board where the replay
	                              stopped (the last legal one) to the goal, -1
	                              if unsolvable */
	int optimal;             /**< reaches_goal and length == distance */
	sdb_board end;           /**< the board where the replay stopped */
} sdb_check;

/** @brief Replay @p moves from @p start and judge them against @p goal.
 *
 * A sequence that leaves the board, falls short or is longer than optimal
 * is a verdict (return 0), not an error. Distances come from
 * sdb_answer_query() (tables, or a search within @p opts->limits).
 * @param[in] moves  letters u d l r (either case); "" is the empty sequence
 * @param[in] opts   NULL: no limits; only the limits are used
 * @return 0, #SDB_EINVAL (sizes differ, or a character that is not a move;
 * the detail names its position), or an error of sdb_answer_query(). */
SDB_API int sdb_check_moves(sdb_check *c, const sdb_db *db, const sdb_board *start,
                            const sdb_board *goal, const char *moves, const sdb_answer_opts *opts);
/**@}*/

/** @name Random boards
 *
 * Boards drawn for people (puzzles of a chosen difficulty) and for
 * learning (uniform samples at each distance, or every state once:
 * sdb_states_open()), all through one request (sdb_random_request). The
 * generator inside is xoshiro256** seeded by splitmix64: the same seed
 * gives the same boards on every machine and in every version. It is not
 * part of the API: a caller that wants random numbers of its own has its
 * own generator, and one that wants boards asks for them with a seed. */
/**@{*/
/** @brief A request for random boards, as every front end takes one: a
 * distance, or a range of distances, or a random walk; how many boards; a
 * seed. Start from #SDB_RANDOM_REQUEST_INIT and set what was asked: the
 * rules (sdb_random_check()) are the library's, so a request gets one
 * verdict whatever the front end and the order of its options. */
typedef struct sdb_random_request {
	unsigned version;      /**< #SDB_RANDOM_REQUEST_VERSION */
	int distance;          /**< exactly this many moves from the goal, or -1 */
	int min_distance;      /**< at least this many (alone: no most), or -1 */
	int max_distance;      /**< at most this many (alone: from 0), or -1 */
	int walk;              /**< scramble by a random walk of this many moves
	                            instead of drawing at a distance, or -1 */
	uint64_t count;        /**< how many boards (at least 1) */
	uint64_t seed;         /**< the generator's seed, when seed_given */
	int seed_given;        /**< 0: a fresh seed (sdb_random_seed() tells it) */
	int metric;            /**< enum sdb_metric of the distances and the walk
	                            (read from version 2): in the multi-tile
	                            metric, from its full tables, and a walk's
	                            moves are slides of any length */
} sdb_random_request;
#define SDB_RANDOM_REQUEST_VERSION 2   /* 2: metric (1 is read too) */
#define SDB_RANDOM_REQUEST_INIT { SDB_RANDOM_REQUEST_VERSION, -1, -1, -1, -1, 1, 0, 0, \
	                          SDB_METRIC_STM }
/** The longest random walk a request may ask. */
#define SDB_MAX_WALK 1000000

/** @brief The one validation of a random request: a distance and a range
 * do not combine, a walk combines with neither, the least distance is at
 * most the most, distances are 0 .. #SDB_MAX_DISTANCE - 1, a walk 0 ..
 * #SDB_MAX_WALK, the count at least 1. No database needed: what a front end
 * reports as a usage error (a 400).
 * @return 0, or #SDB_EINVAL with the rule broken in sdb_error_detail(). */
SDB_API int sdb_random_check(const sdb_random_request *r);

/** @brief The distances a request asks: @p lo .. @p hi, or -1, -1 for any
 * (as sdb_states_open() takes them). */
SDB_API void sdb_random_range(const sdb_random_request *r, int *lo, int *hi);

/** @brief Random boards as a request asks them. */
typedef struct sdb_random sdb_random;

/** @brief Check @p r and prepare its draw for @p goal, with the seed given
 * or a fresh one.
 *
 * A distance or a range: boards uniformly among the states at those
 * distances from @p goal. A distance needs the goal's full table (of whole
 * distances): where the distances asked hold at least one state in 16, a
 * draw reads random entries until one fits (a few reads); rarer ones are
 * listed by one pass over the table here and drawn from the list. Neither
 * (the request as #SDB_RANDOM_REQUEST_INIT leaves it): uniformly among every
 * state that reaches the goal, with no table (@p db may be NULL), for any
 * board. A walk: a random walk of that many moves from the goal that never
 * undoes its previous move, a scramble for boards without tables (its
 * distance is at most the walk's length).
 * @return 0, #SDB_EINVAL (as sdb_random_check(), or a range that holds no
 * state: the detail gives the distances the table has; a range of a two-bit
 * table), #SDB_ENOTFOUND (no full table: the detail names the command),
 * #SDB_ETOOBIG (a distance asked on a board without full tables),
 * #SDB_ENOMEM. */
SDB_API int sdb_random_open(sdb_random **rd, const sdb_db *db, const sdb_board *goal,
                            const sdb_random_request *r);

/** @brief The seed a draw uses (the one given, or the fresh one): the same
 * seed gives the same boards on every machine. */
SDB_API uint64_t sdb_random_seed(const sdb_random *rd);

/** @brief How many states the draw is among: every state at the distances
 * asked (every state of the goal's class when no distance is: UINT64_MAX on
 * boards over 20 cells, as sdb_rank_count()); 0 for a walk, which draws no
 * state uniformly. */
SDB_API uint64_t sdb_random_population(const sdb_random *rd);

/** @brief The next @p n boards of the draw. A draw belongs to one thread
 * at a time (each draws its own sequence); several threads draw from one
 * database with a draw each.
 * @return 0, or #SDB_ECORRUPT when the table does not hold the states its
 * counts say (a damaged table). */
SDB_API int sdb_random_draw(sdb_random *rd, sdb_board *boards, size_t n);

/** @brief Close a draw. NULL is ok. */
SDB_API void sdb_random_close(sdb_random *rd);

/** @brief Lists every state at chosen distances from a goal, once each. */
typedef struct sdb_states sdb_states;

/** @brief Prepare to list the states at distance @p min_distance ..
 * @p max_distance (inclusive) from @p goal, each once, in the index order of
 * the goal's full table (what a dataset for learning needs, where
 * sdb_random_draw() repeats states and misses others).
 *
 * A distance needs the goal's full table of whole distances (one byte per
 * state). Pass -1, -1 for every state that reaches the goal: with such a
 * table, listed with their distances; without one (or with a two-bit
 * table), the goal's class in rank order, with no distances.
 * @return 0, #SDB_EINVAL (a negative distance, or a range of a two-bit
 * table: the detail names the `--bits 8` build), #SDB_ENOTFOUND (no full
 * table: the detail names the command), #SDB_ETOOBIG (a board of more than
 * #SDB_MAX_FULL_CELLS cells), #SDB_ENOMEM. */
SDB_API int sdb_states_open(sdb_states **s, const sdb_db *db, const sdb_board *goal,
                            int min_distance, int max_distance);

/** @brief sdb_states_open() with the distances in @p metric (enum
 * sdb_metric): the multi-tile metric's from its full tables.
 * @return as sdb_states_open(), or #SDB_EINVAL for a metric that is none. */
SDB_API int sdb_states_open_metric(sdb_states **s, const sdb_db *db, const sdb_board *goal,
                                   int min_distance, int max_distance, int metric);

/** @brief The next states: up to @p cap rows of goal->n cells (row-major,
 * the blank as 0) into @p cells and, if @p dist is not NULL, their distances
 * (-1 when listed without a table).
 * @return how many rows were written (0: all have been listed), or
 * #SDB_ECORRUPT when the table's bytes fail their checksum or hold other
 * states than its counts say. */
SDB_API long sdb_states_next(sdb_states *s, uint8_t *cells, int16_t *dist, size_t cap);

/** @brief How many states the listing holds in all. */
SDB_API uint64_t sdb_states_count(const sdb_states *s);

/** @brief 1 if sdb_states_next() gives distances (a table of whole
 * distances lists them), 0 if it gives -1 for every state. */
SDB_API int sdb_states_distances(const sdb_states *s);

/** @brief Close a listing. NULL is ok. */
SDB_API void sdb_states_close(sdb_states *s);

/**@}*/

/** @name Heuristics for other solvers
 *
 * An additive pattern-database set gives a lower bound on the distance of
 * any state to a goal: the sum over its groups of one table read each. On
 * square boards whose set has the blank on the main diagonal, the state
 * mirrored about that diagonal gives a second bound, and the heuristic is the
 * larger of the two (Korf and Felner). Several sets (other partitions of the
 * tiles) give several bounds, and the heuristic is the largest of them all.
 * A set built for one goal serves every goal with the blank in a cell of the
 * same symmetry class. */
/**@{*/
typedef struct sdb_heuristic sdb_heuristic;

/** @brief Open the heuristic of a pattern-database set for @p goal.
 *
 * Every table of the set is checked against its CRC-32 first, so a damaged
 * set is refused rather than giving wrong bounds: this reads the whole set
 * (most of a one-off query's time; bench/RESULTS.md) once per database
 * handle: later heuristics of @p db, and its searches, find the tables
 * checked (a handle opened or renewed with sdb_db_reopen() checks them
 * again). sdb_answer_query() opens each set once per database handle.
 * @param[out] h    the heuristic, closed with sdb_heuristic_close(); it reads
 *                  the tables of @p db, which must stay open
 * @param[in] set   a set's name, several joined by '+' (the maximum of their
 *                  bounds), or NULL for the database's best for @p goal: the
 *                  strongest complete set that serves it (the largest sum of
 *                  its groups' mean values, from the stored counts, so a set of
 *                  zeros is the weakest), with every other complete set whose
 *                  strength is within 5% of it (another partition of about
 *                  the same strength prunes other nodes; a much weaker one
 *                  costs its reads for little), read in the order of their
 *                  tables' bytes, the smallest first (sdb_heuristic_name()
 *                  says them in that order; named sets keep the order given)
 * @return 0, #SDB_ENOTFOUND (no such set; sdb_error_detail() names the
 * `slidedb-gen pdb` command), #SDB_ECORRUPT (a table of the set is missing or
 * damaged), #SDB_ENOMEM. */
SDB_API int sdb_heuristic_open(sdb_heuristic **h, const sdb_db *db, const sdb_board *goal,
                               const char *set);

/** @brief The Manhattan distance plus linear conflicts, for any board and
 * goal (no database): the fallback when no set is built. */
SDB_API int sdb_heuristic_open_manhattan(sdb_heuristic **h, const sdb_board *goal);

/** @brief Close a heuristic. NULL is ok. */
SDB_API void sdb_heuristic_close(sdb_heuristic *h);

/** @brief The set's name, or "manhattan+linear-conflicts". */
SDB_API const char *sdb_heuristic_name(const sdb_heuristic *h);

/** @brief Lower bound on the moves from @p state to the heuristic's goal:
 * O(groups) table reads.
 * @return the bound (>= 0), or #SDB_EINVAL when @p state is not of the
 * heuristic's board size. */
SDB_API int sdb_heuristic_value(const sdb_heuristic *h, const sdb_board *state);

/** @brief A state followed move by move (see sdb_heuristic_move()). Plain
 * data: copy it to keep a state, e.g. one per depth of a search. */
typedef struct sdb_hstate {
	sdb_board board[2];                 /* in the set's frame: plain, mirrored */
	uint8_t part[2][SDB_MAX_GROUPS];    /* value of each group */
	uint8_t md[2][SDB_MAX_GROUPS];      /* Manhattan distance of each group's tiles */
	uint64_t mask[2][SDB_MAX_GROUPS];   /* cells of each group's tiles */
	int sum[2][SDB_MAX_SETS];           /* each set's bound */
	int value;
} sdb_hstate;

/** @brief Start following @p state.
 * @return its heuristic value (>= 0), or #SDB_EINVAL when @p state is not of
 * the heuristic's board size. */
SDB_API int sdb_heuristic_start(const sdb_heuristic *h, sdb_hstate *st, const sdb_board *state);

/** @brief Move the blank of the followed state in direction @p move (of the
 * caller's board) and update the value: one group's table read (two with
 * mirroring). @return the new value, or #SDB_EINVAL if the move leaves the
 * board (the state is unchanged). */
SDB_API int sdb_heuristic_move(const sdb_heuristic *h, sdb_hstate *st, int move);
/**@}*/

/** @name Solving with IDA* */
/**@{*/
/** What a search did. */
typedef struct sdb_solve_stats {
	uint64_t nodes;          /**< nodes expanded */
	int heuristic;           /**< the heuristic's value at the start */
	double seconds;          /**< wall time */
} sdb_solve_stats;

/** @brief An optimal move sequence from @p start to @p goal by IDA* with the
 * heuristic @p h: iterative deepening on f = g + h, never undoing the
 * previous move.
 *
 * @p h may have been opened for any goal whose blank is in the same symmetry
 * class as @p goal's: one heuristic serves every such goal.
 * The answer is what the search found: a->distance is the length of the
 * move sequence that reached the goal. The method, nodes and heuristic
 * fields of @p a are filled as well.
 * @return 0 (a->moves, a->distance filled; a->solvable 0 for unsolvable
 * pairs, which are answered without search), #SDB_EINVAL (sizes differ, or
 * @p h serves another class of goals), #SDB_ELIMIT (a limit was hit; stats
 * and a->nodes say how far it got). */
SDB_API int sdb_answer_search(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
                              const sdb_board *start, const sdb_board *goal,
                              const sdb_solve_limits *limits);
/**@}*/

/** @name Upkeep: choosing, moving, removing and compacting tables
 *
 * A name given to these functions (and to `slidedb-gen rm | export` and
 * `slidedb-lookup info | verify`) means one table ("full-3x3-b0",
 * "pdb-4x4-b0-7-8/g1"), every table of a pattern-database set
 * ("pdb-4x4-b0-7-8"), or every goal class of a full size ("full-3x3").
 *
 * An export is a standard gzip stream: a text header, then per table its
 * metadata as "key value" lines and its entries as raw bytes, then an end
 * marker with the number of tables. */
/**@{*/
/** @brief The tables a name means (see above), in name order.
 * @param[out] out  up to @p cap tables
 * @return how many the name means (may exceed @p cap), or #SDB_ENOTFOUND. */
SDB_API int sdb_table_select(const sdb_table **out, int cap, const sdb_db *db, const char *name);

/** @brief Write the tables @p names mean (each as sdb_table_select()) to the
 * gzip file @p path ("-": standard output). The file is written beside and
 * renamed, so a failed export leaves none. Every table's CRC is checked
 * first.
 * @param[out] ntables how many tables were written
 * @param[in] fn    NULL, or called with the table bytes written so far,
 *                  every MiB or so (a program's progress bar), with @p ctx
 * @return 0, #SDB_ENOTFOUND (a name means no table), #SDB_ECORRUPT (a table
 * fails its CRC), #SDB_EIO. */
SDB_API int sdb_db_export(const sdb_db *db, const char *const *names, int nnames, const char *path,
                          int *ntables, sdb_progress_fn fn, void *ctx);

/** Flag of sdb_db_import(): replace tables of the same names. */
#define SDB_REPLACE 0x1

/** @brief Called by sdb_db_import() for each table of an export once its
 * checksums, counts and proof (sdb_table_prove()) have passed, before
 * anything is stored: return 0 to take it, or an SDB_E* code with the reason
 * in @p why (the import is refused, naming the table).
 * @param[in] data   the entries (NULL for a table stored in chunks), valid
 *                   during the call
 * @param[in] proof  enum sdb_proof: a table the library cannot prove
 *                   (#SDB_PROOF_NONE) is taken only if this proves it */
typedef int (*sdb_import_check_fn)(void *ctx, const sdb_table_info *info, const uint8_t *data,
                                   int proof, char *why, size_t cap);

/** @brief Options of sdb_db_import(). Start from #SDB_IMPORT_OPTS_INIT. */
typedef struct sdb_import_opts {
	unsigned version;             /**< #SDB_IMPORT_OPTS_VERSION */
	unsigned flags;               /**< #SDB_REPLACE, or 0 to refuse tables that exist */
	sdb_prove_opts prove;         /**< the proofs' threads and progress */
	sdb_import_check_fn check;    /**< NULL: a table the library cannot prove is refused */
	void *ctx;                    /**< handed to @p check */
} sdb_import_opts;
#define SDB_IMPORT_OPTS_VERSION 1
#define SDB_IMPORT_OPTS_INIT { SDB_IMPORT_OPTS_VERSION, 0, SDB_PROVE_OPTS_INIT, NULL, NULL }

/** @brief Read an export ("-": standard input) into a database opened
 * read-write, in one transaction. Everything is checked before anything is
 * stored: the gzip CRC and length, each table's CRC-32 and counts, the
 * metadata, the format version and the end marker, and every table is
 * proved against its neighbours (sdb_table_prove(): an export is a file
 * anyone can write, checksums included). On any error the database stays
 * as it was. A #SDB_BLANK_MIN pattern group, which the library cannot
 * prove, is refused unless @p opts->check proves it (`slidedb-gen import`
 * builds it again and compares).
 * @param[in] opts  flags, the proofs' threads and progress, a check (NULL:
 *                  the defaults)
 * @param[out] ntables how many tables were stored
 * @return 0, #SDB_ENOTFOUND (cannot open), #SDB_ECORRUPT (truncated,
 * altered, not an export, another format, an entry its neighbours
 * contradict), #SDB_EEXIST (a table exists and no #SDB_REPLACE),
 * #SDB_EINVAL (read-only handle, options of another version, a table no
 * proof takes), #SDB_ENOMEM, #SDB_EIO, or what @p opts->check returned. */
SDB_API int sdb_db_import(sdb_db *db, const char *path, const sdb_import_opts *opts,
                          int *ntables);

/** @brief Remove the tables @p names mean from a database opened
 * read-write, in one transaction: all of them, or (on any error, e.g. a name
 * that means nothing) none.
 * @param[out] ntables how many tables were removed
 * @return 0, #SDB_ENOTFOUND, #SDB_EINVAL (read-only handle), #SDB_EIO. */
SDB_API int sdb_db_remove(sdb_db *db, const char *const *names, int nnames, int *ntables);

/** @brief Rewrite the database file at @p path without its free pages.
 *
 * LMDB never gives pages back to the file system: a replaced or removed
 * table leaves free pages that later writes reuse, so the file keeps its
 * largest size. This writes a compacted copy beside the file (LMDB's
 * compacting copy) while holding the write lock, so no commit can land in
 * the old file after the copy, then renames it over the file: until the
 * rename the old file is the database, whole, and a failure leaves it so.
 * It refuses while another process is reading the database (a reader would
 * go on reading the old file through a lock file that describes the new
 * one).
 * @param[out] before, after  the file's size before and after (NULL: not wanted)
 * @return 0, #SDB_ENOTFOUND, #SDB_ECORRUPT, #SDB_EVERSION, #SDB_EIO (also:
 * in use by readers). */
SDB_API int sdb_db_compact(const char *path, uint64_t *before, uint64_t *after);
/**@}*/

/** @name Board symmetries
 *
 * The symmetries of a W x H board that keep its size: 4 (identity, the two
 * mirrors, the half turn), and 8 on square boards (with the quarter turns and
 * the two diagonal mirrors). */
/**@{*/
/** @brief Number of symmetries of the board size (4 or 8). */
SDB_API int sdb_sym_count(int w, int h);
/** @brief The cell that symmetry @p s maps @p cell to. */
SDB_API int sdb_sym_cell(int w, int h, int s, int cell);
/** @brief The direction symmetry @p s maps @p move to. */
SDB_API int sdb_sym_move(int w, int h, int s, int move);
/** @brief Apply symmetry @p s to a whole board (tiles move with their cells). */
SDB_API void sdb_sym_board(sdb_board *out, const sdb_board *in, int s);
/** @brief The representative of @p cell's class: the smallest cell any
 * symmetry maps it to. Tables are built for representatives only. */
SDB_API int sdb_sym_representative(int w, int h, int cell);
/**@}*/

/** @name Batches and words for bindings
 *
 * What a binding to another language needs beyond one query at a time: many
 * boards of one size at once, as rows of cells (an (N, W*H) array of NumPy's
 * uint8, row-major, the blank as 0), and the words the programs print. The
 * Python package (python/) is built on these. */
/**@{*/
/** @brief The size of a board of @p count cells: a square count is the
 * square board, else the one size that fits, else the one of those @p db
 * has tables for (as sdb_query_parse() settles a count).
 * @param[in] db  the database whose tables settle it, or NULL
 * @return 0, #SDB_EINVAL (no board has that many cells), #SDB_EAMBIGUOUS
 * (several sizes fit; the detail lists them). */
SDB_API int sdb_board_cells_size(int *w, int *h, int count, const sdb_db *db);

/** @brief Distances and best moves of @p n boards to one goal.
 *
 * Row i of @p cells is board i: goal->n bytes, row-major. With a full table
 * for the goal this is one rank and one byte read per board (the table and
 * the goal's frame are found once per batch, nothing is allocated); other
 * boards are answered one by one as sdb_answer_query() answers them (a
 * search within @p limits, a walk of a two-bit table). Thread-safe as
 * sdb_answer_query() is.
 * @param[out] dist  n distances, -1 where the goal cannot be reached; or NULL
 * @param[out] best  n best moves (enum sdb_move), -1 at the goal and where
 *                   it cannot be reached; or NULL
 * @param[in] limits bounds on each search, or NULL for none
 * @param[out] bad   on failure, the row that failed (may be NULL)
 * @return 0, #SDB_EINVAL (a row is not a board of the goal's size: the detail
 * says "board I: ..."), #SDB_ENOTFOUND (no table for the goal; the detail
 * names the command that builds it), #SDB_ECORRUPT, #SDB_ELIMIT,
 * #SDB_ENOMEM. */
SDB_API int sdb_batch_distance(int16_t *dist, int8_t *best, const sdb_db *db, const sdb_board *goal,
                               const uint8_t *cells, size_t n, const sdb_solve_limits *limits,
                               size_t *bad);

/** @brief sdb_batch_distance() in @p metric (enum sdb_metric): the
 * multi-tile metric's distances and best directions from its full tables
 * (boards up to #SDB_MAX_FULL_CELLS cells; larger ones are #SDB_ETOOBIG).
 * @return as sdb_batch_distance(), or #SDB_EINVAL for a metric that is none. */
SDB_API int sdb_batch_distance_metric(int16_t *dist, int8_t *best, const sdb_db *db,
                                      const sdb_board *goal, const uint8_t *cells, size_t n,
                                      const sdb_solve_limits *limits, size_t *bad, int metric);

/** @brief Heuristic values of @p n boards of size @p w x @p h (rows of
 * @p cells as for sdb_batch_distance()): sdb_heuristic_value() of each.
 * @param[out] value n lower bounds
 * @param[out] bad   on failure, the row that failed (may be NULL)
 * @return 0, or #SDB_EINVAL (a row is not a board of the heuristic's size:
 * the detail says "board I: ..."). */
SDB_API int sdb_batch_heuristic(int16_t *value, const sdb_heuristic *h, const uint8_t *cells, int w,
                                int ht, size_t n, size_t *bad);

/** @brief The name `info` gives a kind of table (enum sdb_kind): "full",
 * "pattern", or "unknown". */
SDB_API const char *sdb_table_kind_name(int kind);

/** @brief The name `info` gives an entry format (enum sdb_format):
 * "dist6-move2", "dist8", "nibble-manhattan", "mod3-2bit", or "unknown". */
SDB_API const char *sdb_table_format_name(int format);

/** @brief The checker's verdict as a sentence: "optimal", "valid, K moves
 * longer than optimal", "illegal move 'u' at step 3", "does not reach the
 * goal (ends K moves away)" or "unsolvable"; 64 bytes always suffice.
 * @return the length written (excluding the NUL), or #SDB_EINVAL if @p cap
 * is too small. */
SDB_API int sdb_check_verdict(char *buf, size_t cap, const sdb_check *c);
/**@}*/

/** @defgroup fields Fields: what an answer, a verdict or a table says
 * The one list of what an answer, a checker's verdict and a catalog entry
 * hold, in order, named as `slidedb-lookup --json` names them: the CLI and
 * the server write these fields as JSON, Python makes its dicts of them,
 * so no front end keeps a list of its own. Each function calls @p fn once
 * per field, in order; a list is a field of type #SDB_VALUE_LIST followed
 * by its items (name NULL; lists may nest) and an #SDB_VALUE_END; an object
 * is a field of type #SDB_VALUE_OBJECT followed by its named fields and an
 * #SDB_VALUE_END.
 * @{ */

/** The type of a field's value. */
enum sdb_value_type {
	SDB_VALUE_NULL,    /**< no value (JSON null, Python None) */
	SDB_VALUE_BOOL,    /**< sdb_field.i: 0 or 1 */
	SDB_VALUE_INT,     /**< sdb_field.i */
	SDB_VALUE_REAL,    /**< sdb_field.real: seconds (JSON: 6 decimals) */
	SDB_VALUE_TEXT,    /**< sdb_field.text */
	SDB_VALUE_COUNT,   /**< sdb_field.count: a 128-bit count, exact */
	SDB_VALUE_LIST,    /**< a list begins: its items follow */
	SDB_VALUE_END,     /**< the list (or object) ends */
	SDB_VALUE_OBJECT   /**< an object begins: its named fields follow */
};

/** One field, valid during the call to the visitor only. */
typedef struct sdb_field {
	const char *name;    /**< the JSON key; NULL for a list's items and ends */
	int type;            /**< enum sdb_value_type */
	int64_t i;           /**< BOOL, INT */
	double real;         /**< REAL */
	const char *text;    /**< TEXT: UTF-8 (tables' names and sets are
	                          what their writer stored), NUL-terminated */
	size_t len;          /**< TEXT: its length in bytes */
	sdb_count count;     /**< COUNT */
} sdb_field;

/** @brief Called with each field; non-zero stops the walk (the fields
 * function then returns that value). */
typedef int (*sdb_field_fn)(void *ctx, const sdb_field *f);

/** Optional fields of an answer (sdb_fields_opts.want). */
enum sdb_fields_want {
	SDB_FIELDS_TILES = 1 << 0,       /**< "tiles": the tile each move slides */
	SDB_FIELDS_BEST_MOVES = 1 << 1,  /**< "best_moves" (a.best_moves filled) */
	SDB_FIELDS_SOLUTIONS = 1 << 2,   /**< "solutions" (a.solutions filled) */
	SDB_FIELDS_ALL_MOVES = 1 << 3,   /**< "all_moves": sdb_fields_opts.all */
	SDB_FIELDS_PATH = 1 << 4,        /**< "path": every board along the moves */
	SDB_FIELDS_GRIDS = 1 << 5,       /**< the boards also as rows of a grid
	                                      ("start_grid", "goal_grid", and
	                                      "path_grids" or "end_grid") */
	SDB_FIELDS_MTM = 1 << 6          /**< the answer (or verdict) is in the
	                                      multi-tile metric: "metric": "mtm"
	                                      after "size", and an answer's
	                                      "moves" and "all_moves" in its
	                                      notation ("r3ul2",
	                                      sdb_moves_format_mtm()); "tiles" and
	                                      "path" still go cell by cell (a
	                                      verdict's "moves" are as given).
	                                      Without it no "metric" field: STM */
};

/** What the optional fields are made of. */
typedef struct sdb_fields_opts {
	unsigned want;       /**< enum sdb_fields_want bits */
	const char *all;     /**< #SDB_FIELDS_ALL_MOVES: the optimal sequences,
	                          each ended by '\n' (NULL: none) */
	char blank;          /**< #SDB_FIELDS_GRIDS: how grids write the blank
	                          (0: '0') */
} sdb_fields_opts;

/** @brief The fields of an answer to @p q: "start", "goal", "size",
 * "solvable", "distance", "best_move", "moves", then those @p opts wants
 * ("tiles", "best_moves", "solutions", "all_moves", "path", grids), then
 * "nodes" and "heuristic" when it was searched. Unsolvable, the values
 * past "solvable" are null.
 * @return 0, or what @p fn returned to stop. */
SDB_API int sdb_answer_fields(const sdb_query *q, const sdb_answer *a, const sdb_fields_opts *opts,
                              sdb_field_fn fn, void *ctx);

/** @brief The fields of the checker's verdict on @p moves from @p q's
 * start: "start", "goal", "size", "moves", "legal", "illegal_step",
 * "reaches_goal", "length", "distance", "optimal", "end_distance",
 * "verdict", and the grids when @p opts wants them (#SDB_FIELDS_GRIDS:
 * "start_grid", "end_grid", "goal_grid"; other bits are ignored).
 * @return 0, or what @p fn returned to stop. */
SDB_API int sdb_check_fields(const sdb_query *q, const char *moves, const sdb_check *c,
                             const sdb_fields_opts *opts, sdb_field_fn fn, void *ctx);

/** What an answer (or a verdict) rests on besides the search that gave it:
 * the work of an earlier run that it resumed, as slidedb-lookup-mpi's
 * sealed checkpoints keep it. */
typedef struct sdb_fields_resumed {
	const char *checkpoint;   /**< the file resumed from */
	const char *key_file;     /**< the key whose seal it carried */
	int bound;                /**< every bound below it was searched by the earlier run */
	int subtrees_done;        /**< subtrees at @c bound it searched to the end */
	uint64_t nodes;           /**< the nodes it searched */
} sdb_fields_resumed;

/** @brief The field "resumed" of an answer or a verdict that rests on an
 * earlier run's work: an object of "checkpoint", "key_file", "bound",
 * "subtrees_done" and "nodes", for a front end that resumes searches to
 * walk after sdb_answer_fields() or sdb_check_fields() (its last field).
 * @return 0, or what @p fn returned to stop. */
SDB_API int sdb_resumed_fields(const sdb_fields_resumed *r, sdb_field_fn fn, void *ctx);

/** @brief The fields of a catalog entry, as `slidedb-lookup info --json`
 * and Python's Database.tables() show it: "name", "kind", "size", "goal",
 * "blank_cells" (the goal blank cells it serves), "entry_format",
 * "states", "bytes", "chunks", "max_distance", "crc32", "built_at",
 * "build_seconds", "threads", "tool_version"; for a pattern table "set",
 * "group", "groups", "blank" ("region" or "min"), "layout" ("orders" or
 * "blocks": sdb_table_layout() in slidedb_engine.h), "tiles", "left_out",
 * "tiles_of"; then "format_version", "counts", and "problem" when the
 * table cannot be used (sdb_table_problem()). A catalog entry too damaged
 * to read has only "name" and "problem".
 * @return 0, or what @p fn returned to stop. */
SDB_API int sdb_table_fields(const sdb_table *t, sdb_field_fn fn, void *ctx);
/**@}*/

#ifdef __cplusplus
}
#endif
#endif /* SLIDEDB_H */
