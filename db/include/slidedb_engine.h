/* SPDX-License-Identifier: MIT */
/** @file slidedb_engine.h
 * @brief slidedb's engine interface: what table builders need and users do not.
 *
 * slidedb.h is the stable API for users (boards, queries, answers, heuristics,
 * upkeep). This header adds the pieces a table builder works with: the
 * neighbour ranking a BFS walks the index space with, pattern index spaces,
 * frames (how a goal is brought onto a table's canonical goal), and the
 * write transaction with its zero-copy reserve. slidedb-gen is built on it,
 * and so can another generator be; it may change between minor versions,
 * as libgit2's git2/sys/ and zstd's static-linking-only section may.
 */
#ifndef SLIDEDB_ENGINE_H
#define SLIDEDB_ENGINE_H

#include "slidedb.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @name Files
 *
 * Every file a program or the library opens by a name a user gave (a
 * database, its lock file, an export or import, a shard, a checkpoint, a
 * key file, a statistics file) is opened by sdb_file_open(): a FIFO with no
 * one at the other end, a device or a socket at the path is refused at
 * once, naming it, never waited on. */
/**@{*/
/** @brief open(2) @p path with @p flags (O_CLOEXEC is added) and @p mode
 * (for O_CREAT), without waiting: it is opened with O_NONBLOCK, refused
 * unless fstat(2) finds a regular file, and returned with O_NONBLOCK
 * cleared (reads and writes then wait as they do on any file).
 * @return the descriptor; #SDB_ENOTFOUND (no such file, errno ENOENT);
 * #SDB_EIO, errno EINVAL: not a regular file (a FIFO, a device, a socket, a
 * folder, or a link under O_NOFOLLOW); #SDB_EIO, errno the system's: could
 * not open it. sdb_error_detail() names @p path and says why. */
SDB_API int sdb_file_open(const char *path, int flags, unsigned mode);
/**@}*/

/** @name Perfect index: neighbours */
/**@{*/
/** @brief Unrank @p index and compute the indices of its four neighbours,
 * in about the time of one unrank.
 *
 * Horizontal moves keep the order of the tiles, so their indices differ by
 * one block of (n-1)!/2; a vertical move carries one tile over W-1 others,
 * which changes W Lehmer digits, updated in O(W). For engines that walk the
 * index space (a BFS over a full table).
 * @param[out] nbr  nbr[m] = index after moving the blank in direction m
 *                  (enum sdb_move), or UINT64_MAX when it would leave the board
 * @param[out] b    the board of @p index, or NULL if not wanted
 * @return 0, or #SDB_EINVAL as sdb_board_unrank(). */
SDB_API int sdb_rank_neighbors(uint64_t nbr[4], sdb_board *b, int w, int h, int cls,
                               uint64_t index);

/** @brief A walk over the index space: the last index unranked, kept so that
 * the next one unranks only the Lehmer digits that differ.
 *
 * An engine that visits indices in increasing order (a scan of its slice)
 * unranks the next index in a digit or two instead of n-1, where a
 * full-table BFS spent much of its time. Any order is correct; far jumps cost a full
 * unrank. One walk per thread; the fields are the walk's own. */
typedef struct sdb_rank_walk {
	uint8_t w, h, n, cls;
	uint8_t known;                            /* leading digits decoded */
	uint32_t blank;                           /* the last index's blank cell */
	uint64_t block_start;                     /* the first index of its block */
	uint32_t half;                            /* its index within the blank's block */
	uint32_t base[SDB_MAX_FULL_CELLS];        /* the part digits 0..j-1 make (j <= known) */
	uint16_t unseen[SDB_MAX_FULL_CELLS];      /* tiles not among positions 0..j-1 */
	uint8_t sum[SDB_MAX_FULL_CELLS];          /* digits 0..j-1 added up */
	uint8_t tile[SDB_MAX_FULL_CELLS];         /* the tiles, row-major, blank skipped */
	uint8_t digit[SDB_MAX_FULL_CELLS];        /* their Lehmer digits */
	uint8_t delta_kept;                       /* bit dir: delta[dir] holds (up 0, down 1) */
	int64_t delta[2];                         /* a vertical move's index change */
} sdb_rank_walk;

/** @brief Start a walk over the full-table index space of @p w x @p h,
 * class @p cls.
 * @return 0, or #SDB_EINVAL for a size without a full-table index. */
SDB_API int sdb_rank_walk_init(sdb_rank_walk *walk, int w, int h, int cls);

/** @brief sdb_rank_neighbors() of @p index, from where @p walk last was.
 * Same results, same errors. */
SDB_API int sdb_rank_walk_neighbors(sdb_rank_walk *walk, uint64_t nbr[4], sdb_board *b,
                                    uint64_t index);

/** Most cells one multi-tile move carries on a board of full tables (7x2). */
#define SDB_MTM_MAX_RUN 6

/** @brief The longest multi-tile move of a W x H board: max(W, H) - 1. */
static inline int sdb_mtm_run(int w, int h)
{
	return (w > h ? w : h) - 1;
}

/** @brief The neighbours of @p index in the multi-tile metric (enum
 * sdb_metric), from where @p walk last was.
 *
 * Slot m * run + k - 1 (run = sdb_mtm_run(), k = 1 .. run) holds the index
 * after the blank travels k cells in direction m (enum sdb_move), or
 * UINT64_MAX when that leaves the board: 4 * run slots. Horizontal slides
 * keep the tiles' order (the index moves k blocks); vertical ones of more
 * than one cell rank the board.
 * @return 0, or #SDB_EINVAL as sdb_board_unrank(). */
SDB_API int sdb_rank_walk_mtm_neighbors(sdb_rank_walk *walk, uint64_t *nbr, uint64_t index);
/**@}*/

/** @name Frames
 *
 * Every table and pattern set is built for a canonical goal: the tiles in
 * order, the blank in a representative cell of its symmetry class. Any goal
 * whose blank is in the same class is brought onto it in two steps: a board
 * symmetry moves the goal's blank onto the representative, then the tiles are
 * relabelled so that the goal reads 1, 2, 3, ... Distances are unchanged by
 * both; moves found in the frame go back through the inverse symmetry. Full
 * tables, pattern sets, the heuristics and the generator all use this one
 * module. */
/**@{*/
/** @brief How a goal is brought onto the canonical goal of its class. */
typedef struct sdb_frame {
	uint8_t w, h;                     /**< the board size */
	uint8_t sym;                      /**< the symmetry applied to boards */
	uint8_t rep;                      /**< the canonical goal's blank cell */
	uint8_t label[SDB_MAX_CELLS];     /**< caller's tile -> frame's tile (0 -> 0) */
	uint8_t unlabel[SDB_MAX_CELLS];   /**< frame's tile -> caller's tile */
	uint8_t move_in[4];               /**< caller's move -> frame's move */
	uint8_t move_back[4];             /**< frame's move -> caller's move */
} sdb_frame;

/** @brief The frame that brings @p goal onto the canonical goal whose blank
 * is in cell @p rep (pass sdb_sym_representative() of the goal's blank for
 * the usual one).
 * @return 0, or #SDB_EINVAL when no symmetry of the board maps the goal's
 * blank onto @p rep. */
SDB_API int sdb_frame_init(sdb_frame *f, const sdb_board *goal, int rep);

/** @brief The ordered goal of the class whose first cell is @p rep: the
 * tiles in order, the blank last when the standard goal is in the class,
 * else in cell @p rep. Set names and `info` number tiles as this goal does
 * (sdb_table_tiles()). */
SDB_API void sdb_frame_goal(sdb_board *b, int w, int h, int rep);

/** @brief @p in seen in the frame: the symmetry applied, tiles relabelled.
 * @p in must have the frame's size (not checked). */
SDB_API void sdb_frame_board(const sdb_frame *f, sdb_board *out, const sdb_board *in);

/** @brief The inverse: a board of the frame seen by the caller (the
 * symmetry undone, tiles given their caller's labels). */
SDB_API void sdb_frame_unboard(const sdb_frame *f, sdb_board *out, const sdb_board *in);
/**@}*/

/** @name Table entries
 *
 * The bits of each entry format (enum sdb_format), named once: every
 * reader and writer of table bytes goes through these. */
/**@{*/
/** An entry no search reached: one-byte formats (distance bits all set, and
 * for #SDB_ENTRY_DIST6_MOVE2 the move bits too), and two-bit tables. */
#define SDB_UNREACHED_BYTE 0xff
#define SDB_UNREACHED_MOD3 3
/** The largest distance a #SDB_ENTRY_DIST6_MOVE2 entry holds, and the
 * distance an unreached one reads as (all six bits). */
#define SDB_DIST6_MAX 0x3e
#define SDB_DIST6_UNREACHED 0x3f
/** The distance bits of a #SDB_ENTRY_DIST6_MOVE2 entry (a #SDB_ENTRY_DIST8
 * entry is all distance). */
#define SDB_DIST6_MASK 0x3f

/** @brief The distance of a #SDB_ENTRY_DIST6_MOVE2 entry (its low 6 bits;
 * 0x3f when unreached). */
static inline int sdb_dist6(unsigned entry)
{
	return (int)(entry & SDB_DIST6_MASK);
}

/** @brief The best move (enum sdb_move) of a #SDB_ENTRY_DIST6_MOVE2 entry
 * (its top 2 bits; meaningless at distance 0). */
static inline int sdb_move2(unsigned entry)
{
	return (int)(entry >> 6 & 3);
}

/** @brief A #SDB_ENTRY_DIST6_MOVE2 entry of distance @p d and best move @p m. */
static inline uint8_t sdb_dist6_move2(int d, int m)
{
	return (uint8_t)(d | m << 6);
}

/** @brief Entry @p i of a #SDB_ENTRY_MOD3 table: its distance mod 3, or
 * #SDB_UNREACHED_MOD3 (four entries a byte, low bits first). */
static inline unsigned sdb_mod3(const uint8_t *data, uint64_t i)
{
	return (unsigned)(data[i >> 2] >> ((i & 3) * 2)) & 3u;
}

/** @brief Entry @p i of a #SDB_ENTRY_NIBBLE_MD table: the nibble (two
 * entries a byte, low nibble first); the group's moves are its tiles'
 * Manhattan distance plus twice it. */
static inline unsigned sdb_nibble(const uint8_t *data, uint64_t i)
{
	return (unsigned)(data[i >> 1] >> ((i & 1) << 2)) & 15u;
}
/**@}*/

/** @name Writing tables */
/**@{*/
typedef struct sdb_writer sdb_writer;

/** @brief Begin one write transaction on a database opened read-write.
 * Readers are never blocked; other writers wait. @return 0, #SDB_EINVAL
 * (read-only handle), #SDB_EIO, #SDB_ENOMEM. */
SDB_API int sdb_writer_begin(sdb_writer **w, sdb_db *db);

/** @brief Reserve @p size bytes for the entries of table @p name inside the
 * transaction and return where to write them (LMDB MDB_RESERVE: the caller
 * fills the database's own pages, no copy). Replaces a table of that name.
 * Tables over 4 GiB cannot be reserved whole (#SDB_EINVAL): write them with
 * sdb_writer_open_table(). Fill each reserved table before the next.
 * The memory is valid until sdb_writer_put_meta(), commit or abort. @p size
 * is sdb_table_bytes() of the catalog entry to come.
 * @return 0, #SDB_EIO (e.g. map full), #SDB_EINVAL (bad name). */
SDB_API int sdb_writer_reserve(sdb_writer *w, uint8_t **data, const char *name, uint64_t size);

/** @brief The largest table sdb_writer_reserve() takes: 4 GiB - 1 (LMDB's
 * largest value), or less when tuned (sdb_tuning's chunk_bytes: tests). */
SDB_API uint64_t sdb_writer_max_whole(const sdb_writer *w);

/** @brief Begin table @p name of @p size bytes whose entries will be
 * copied in with sdb_writer_append() (replaces a table of that name): for
 * entries that are not built in place, and for tables over 4 GiB, which
 * LMDB cannot hold in one value and which are stored in chunks
 * (sdb_table_chunk()); only #SDB_ENTRY_MOD3 tables may be that large.
 * @return 0, #SDB_EIO, #SDB_EINVAL (bad name). */
SDB_API int sdb_writer_open_table(sdb_writer *w, const char *name, uint64_t size);

/** @brief Copy the next @p n bytes of the table begun by
 * sdb_writer_open_table() into the database's pages, computing its CRC on
 * the way. A chunk is reserved when the previous one is full, so the caller
 * may give back its own copy of each part once appended.
 * @return 0, #SDB_EIO (e.g. map full), #SDB_EINVAL (more than opened). */
SDB_API int sdb_writer_append(sdb_writer *w, const void *data, uint64_t n);

/** @brief Record the catalog entry of the table reserved (or opened and
 * wholly appended) last. Computes
 * the CRC-32 of its entries and fills info->crc32 and info->format_version
 * (#SDB_FORMAT_VERSION; a pattern table whose info says it was built under
 * format 2 to 5 keeps that number, for its entries are in that format's
 * layout: sdb_table_layout()).
 * @return 0, #SDB_EINVAL (no reserved table, or names differ), #SDB_EIO. */
SDB_API int sdb_writer_put_meta(sdb_writer *w, sdb_table_info *info);

/** @brief sdb_table_prove() of the table recorded last with
 * sdb_writer_put_meta(), @p info its catalog entry, read back from the
 * transaction before the commit: for a writer whose entries came from files
 * (`slidedb-gen assemble`'s shards), which their checksums do not make true.
 * @return as sdb_table_prove(); #SDB_EINVAL when no table was recorded. */
SDB_API int sdb_writer_prove(sdb_writer *w, int *proof, const sdb_table_info *info,
                             const sdb_prove_opts *opts);

/** @brief Remove the table @p name (its entries and catalog entry) inside
 * the transaction; a name with no table is not an error.
 * @return 0 or #SDB_EIO. */
SDB_API int sdb_writer_delete(sdb_writer *w, const char *name);

/** @brief Commit: every table of this writer appears at once.
 * The writer is freed in any case. @return 0 or #SDB_EIO. */
SDB_API int sdb_writer_commit(sdb_writer *w);

/** @brief Abandon the transaction: the database is left as it was.
 * The writer is freed. NULL is ok. */
SDB_API void sdb_writer_abort(sdb_writer *w);
/**@}*/

/** @name Shards (distributed builds)
 *
 * slidedb-gen-mpi --shards: each rank writes its slices of the tables of a
 * run, the entries [lo, hi) of each table's index space, into one shard file
 * of its own; `slidedb-gen assemble` joins a complete set into an ordinary
 * database. A slice carries its table's catalog entry (counts and maximum
 * distance of the whole table; the table's CRC is computed on assembly), the
 * run it belongs to and the CRC-32 of its bytes. */
/**@{*/
/** @brief One table's slice in a shard. */
typedef struct sdb_shard_info {
	sdb_table_info table;   /**< the whole table's catalog entry */
	int rank, nranks;       /**< this slice's number, and how many there are */
	uint64_t run;           /**< the run (the same for every shard of a set) */
	uint64_t lo, hi;        /**< the entries of the slice: [lo, hi) */
	uint32_t crc32;         /**< of the slice's bytes */
} sdb_shard_info;

typedef struct sdb_shard sdb_shard;

/** @brief Begin a shard file: written beside @p path, which only
 * sdb_shard_commit() replaces (a failed run leaves no shard, or the one it
 * had). @return 0, #SDB_EIO, #SDB_ENOMEM. */
SDB_API int sdb_shard_create(sdb_shard **sh, const char *path);

/** @brief Add a table's slice: @p data holds the bytes of entries [lo, hi)
 * (a quarter of them for #SDB_ENTRY_MOD3, whose lo must be a multiple of
 * 4). @p s->crc32 is ignored (computed). @return 0, #SDB_EIO. */
SDB_API int sdb_shard_add(sdb_shard *sh, const sdb_shard_info *s, const uint8_t *data);

/** @brief Write the shard to disk and rename it to its path; frees @p sh.
 * @return 0, #SDB_EIO. */
SDB_API int sdb_shard_commit(sdb_shard *sh);

/** @brief Abandon a shard being written; frees @p sh. NULL is ok. */
SDB_API void sdb_shard_abort(sdb_shard *sh);

/** @brief Open a shard read-only and check every table's header.
 * @return 0, #SDB_ENOTFOUND, #SDB_ECORRUPT (not a shard, or a header that
 * contradicts itself), #SDB_EIO, #SDB_ENOMEM. */
SDB_API int sdb_shard_open(sdb_shard **sh, const char *path);

/** @brief Number of tables' slices in a shard. */
SDB_API int sdb_shard_tables(const sdb_shard *sh);

/** @brief Slice @p i's header, or NULL when out of range. */
SDB_API const sdb_shard_info *sdb_shard_table(const sdb_shard *sh, int i);

/** @brief The stored bytes of slice @p i from byte @p at (a multiple of
 * 128 MiB, below the slice's size), zero-copy, valid until close: at most
 * 128 MiB, *bytes says how many.
 * @return the bytes, or NULL (#SDB_ECORRUPT or #SDB_EINVAL, with the detail). */
SDB_API const uint8_t *sdb_shard_chunk(const sdb_shard *sh, int i, uint64_t at, uint64_t *bytes);

/** @brief Close a shard opened for reading. NULL is ok. */
SDB_API void sdb_shard_close(sdb_shard *sh);
/**@}*/

/** @name Pattern spaces (additive pattern databases)
 *
 * A pattern is a group of k <= #SDB_MAX_PATTERN tiles. Its abstract state
 * is where those tiles are; moves of other tiles cost nothing, so the blank
 * wanders freely inside the connected region of non-group cells that holds
 * it. With #SDB_BLANK_REGION the state keeps that region: as exact as
 * keeping the blank's cell, at a fraction of the entries (most placements
 * leave one region). With #SDB_BLANK_MIN it forgets it: the entry is the
 * minimum over the regions, N!/(N-k)! entries (Korf and Felner's form).
 *
 * A block is one set of occupied cells (and, for #SDB_BLANK_REGION, one
 * region of the blank); it holds k! entries, one per order of the group's
 * tiles on those cells. An index is made of a block and an order in one of
 * two layouts:
 * - #SDB_LAYOUT_BLOCKS, block * k! + order, the entries block by block: how
 *   builds walk (a block's moves are the same for every order), and how
 *   tables were stored up to format 5;
 * - #SDB_LAYOUT_ORDERS, order * blocks + block, the blocks order by order:
 *   how tables are stored from format 6 on. Searches read them at random,
 *   and a move that keeps the order of the tiles (every horizontal move, a
 *   vertical one that passes none of them) changes the block only, by
 *   under 20,000 blocks on 4x4 and by a few for the lower cells:
 *   the child's entry lies within 10 KB of its parent's, often in its cache
 *   line, where in the blocks layout it lies whole blocks of k! entries
 *   away.
 * sdb_pattern_new() gives #SDB_LAYOUT_BLOCKS; sdb_pattern_of_table() the
 * layout a stored table has. Every function below takes and gives indices
 * in the pattern's layout. */
/**@{*/
/** Most tiles in one pattern group. */
#define SDB_MAX_PATTERN 8
typedef struct sdb_pattern sdb_pattern;

/** Layouts of a pattern's index (see above). */
enum sdb_pattern_layout {
	SDB_LAYOUT_BLOCKS = 0,   /**< block * k! + order */
	SDB_LAYOUT_ORDERS = 1    /**< order * blocks + block */
};

/** @brief Make the index space of a group of tiles for a goal.
 * @param[out] p     the pattern, freed with sdb_pattern_free()
 * @param[in] goal   the goal board (its size is the pattern's board)
 * @param[in] tiles  bit t set for each tile t of the group (1 <= t < n)
 * @param[in] blank_mode enum sdb_blank_mode
 * @return 0, #SDB_EINVAL (no tiles, more than #SDB_MAX_PATTERN, a tile not on
 * the board, bad mode), #SDB_ENOMEM. */
SDB_API int sdb_pattern_new(sdb_pattern **p, const sdb_board *goal, uint64_t tiles, int blank_mode);

/** @brief A partition of the tiles into pattern groups, as parsed. */
typedef struct sdb_partition {
	int ngroups;
	uint64_t groups[SDB_MAX_GROUPS]; /**< each group as bits of canonical labels
	                                     (the tiles of the canonical goal) */
	uint64_t tiles;                 /**< bit t for each tile given (the goal's) */
	char spelling[64];              /**< the groups in the tiles of the class's
	                                     ordered goal ("1,2,3_4,5,6"), or the
	                                     named partition: for the set's name */
	int truncated;                  /**< the spelling did not fit */
} sdb_partition;

/** @brief Parse a partition spec for @p goal: "5-5-5", "6-6-3" or "7-8" on
 * 4x4, "6-6-6-6" on 5x5 (Korf and Felner's), "6-6-6-6b", "6-6-6-6c" and
 * "6-6-6-6d" (three more partitions into groups of 6, maxed with it by the
 * preset 6-6-6-6x4), "7-7-7-3", "2x2" on any board (squares of
 * 2x2 cells of the canonical goal), or groups of the goal's tiles separated
 * by '/' ("1,2,3/4,5,6"). The
 * groups come out ordered by the smallest tile of their spelling, so a
 * partition typed in another order is the same set. Tiles left out are
 * allowed here (pt->tiles says which are given).
 * @return 0, or #SDB_EINVAL (a tile out of range or in two groups, an empty
 * group, a group of more than #SDB_MAX_PATTERN tiles, a named partition on
 * another board). */
SDB_API int sdb_partition_parse(sdb_partition *pt, const char *spec, const sdb_board *goal);

/** @brief The partition slidedb proposes for a board with no set: 6-6-3 on
 * 4x4 (seconds to build; 7-8 is stronger and takes minutes), 6-6-6-6 on 5x5,
 * 2x2 on boards of more than 25 cells, else the tiles in groups of at most 7
 * (6 past 16 cells): "1,2,3,4,5,6,7/8,9,...". Always a valid
 * `slidedb-gen pdb --partition` argument. */
SDB_API void sdb_partition_default(char *spec, size_t cap, int w, int h);

/** @brief The pattern of a stored pattern table, in the layout of its
 * entries (sdb_table_layout()): sdb_pattern_rank() of a board is where its
 * entry lies in sdb_table_data().
 * @return 0, or the errors of sdb_pattern_new(). */
SDB_API int sdb_pattern_of_table(sdb_pattern **p, const sdb_table_info *info);

/** @brief The layout of a pattern table's entries: #SDB_LAYOUT_ORDERS for
 * tables built at format 6 or later, #SDB_LAYOUT_BLOCKS before (and for
 * full tables, which have no blocks). */
SDB_API int sdb_table_layout(const sdb_table_info *info);

/** @brief Number the pattern's entries in @p layout from now on.
 * @return 0, or #SDB_EINVAL for an unknown layout. */
SDB_API int sdb_pattern_set_layout(sdb_pattern *p, int layout);

/** @brief The pattern's layout. */
SDB_API int sdb_pattern_layout(const sdb_pattern *p);

/** @brief Free a pattern. NULL is ok. */
SDB_API void sdb_pattern_free(sdb_pattern *p);

/** @brief Number of entries of the pattern's table. */
SDB_API uint64_t sdb_pattern_size(const sdb_pattern *p);

/** @brief Index of the goal's pattern state (distance 0). */
SDB_API uint64_t sdb_pattern_goal_index(const sdb_pattern *p);

/** @brief Index of the pattern state of a board (same size as the goal). */
SDB_API uint64_t sdb_pattern_rank(const sdb_pattern *p, const sdb_board *b);

/** @brief The pattern states one move of a group tile away from @p index.
 * @param[out] out at least 4*k indices
 * @return how many were written (duplicates possible), or #SDB_EINVAL if
 * @p index is out of range. */
SDB_API int sdb_pattern_neighbors(const sdb_pattern *p, uint64_t index, uint64_t *out);

/** @brief A walk over a #SDB_BLANK_REGION pattern's entries in
 * #SDB_LAYOUT_BLOCKS, for builds:
 * sdb_pattern_neighbors() from where the walk last was. Consecutive indices
 * of a block share their moves, which are worked out once per block; the
 * change of the tiles' order a move makes is read from a table of k! rows
 * (9.2 MB for 8 tiles) the pattern builds at its first walk and keeps. Any
 * order of indices is correct; one walk per thread, the fields are its own. */
typedef struct sdb_pattern_walk {
	const sdb_pattern *p;
	const int32_t *delta;                 /* the pattern's table, or NULL (short of memory) */
	uint64_t first;                       /* the kept block's first index */
	int moves, cols;
	uint64_t to[4 * SDB_MAX_PATTERN];     /* each move's block's first index */
	uint8_t col[4 * SDB_MAX_PATTERN];     /* each move's column of delta */
} sdb_pattern_walk;

/** @brief Start a walk over @p p (which must outlive it).
 * @return 0, or #SDB_EINVAL if @p p is not a #SDB_BLANK_REGION pattern in
 * #SDB_LAYOUT_BLOCKS. */
SDB_API int sdb_pattern_walk_init(sdb_pattern_walk *walk, const sdb_pattern *p);

/** @brief sdb_pattern_neighbors() of @p index, in the same order, from where
 * @p walk last was. Same results, same errors. */
SDB_API int sdb_pattern_walk_neighbors(sdb_pattern_walk *walk, uint64_t index, uint64_t *out);

/** @brief For a #SDB_BLANK_REGION pattern, the index the same placement has
 * in the #SDB_BLANK_MIN numbering (what a minimum over regions folds onto),
 * in the same layout. In #SDB_LAYOUT_BLOCKS it is never above @p index, and
 * the first region of each placement is numbered 0, so a fold can run in
 * place in index order. */
SDB_API uint64_t sdb_pattern_min_index(const sdb_pattern *p, uint64_t index);

/** @brief Number of blocks; each holds k! entries (see above). */
SDB_API uint64_t sdb_pattern_blocks(const sdb_pattern *p);

/** @brief sdb_pattern_manhattan() of the k! entries of block @p block at
 * once, order by order (0 to k! - 1), into @p md (k! bytes): O(1) per
 * entry. */
SDB_API void sdb_pattern_block_manhattan(const sdb_pattern *p, uint64_t block, uint8_t *md);

/** @brief The number of the blank's region of entry @p index (0 for
 * #SDB_BLANK_MIN patterns). */
SDB_API int sdb_pattern_region(const sdb_pattern *p, uint64_t index);

/** @brief Manhattan distance of the group's tiles to their goal cells in
 * entry @p index: a lower bound of the entry, of the same parity (every
 * move of a group tile changes both by one). */
SDB_API int sdb_pattern_manhattan(const sdb_pattern *p, uint64_t index);
/**@}*/


/** @name Proving tables before they are stored */
/**@{*/
/** @brief sdb_table_prove() of entries that are not stored (yet): a
 * builder's table before it commits, when parts of it came from a file (a
 * resumed build's checkpoint).
 * @param[in] info  the table @p data holds (sdb_table_bytes() of it, whole):
 *                  its kind, entry format, goal, states and the counts to
 *                  find; for a pattern table its group, blank mode and
 *                  format version (its layout), unless @p p is given
 * @param[in] p     NULL, or the pattern whose index space the entries
 *                  follow, in its layout and blank mode (a build's working
 *                  table: #SDB_LAYOUT_BLOCKS, #SDB_BLANK_REGION, one byte an
 *                  entry before it is folded and packed)
 * @return as sdb_table_prove(), and #SDB_EINVAL when @p info describes no
 * table the proof knows (*@p proof is then #SDB_PROOF_NONE). */
SDB_API int sdb_table_prove_entries(int *proof, const sdb_table_info *info, const sdb_pattern *p,
                                    const uint8_t *data, const sdb_prove_opts *opts);
/**@}*/


/** @name Searches split over processes
 *
 * One IDA* iteration (sdb_answer_search()'s depth-first search under one bound), cut
 * at a depth, is a list of subtrees in the order of their move sequences;
 * any process that holds the same heuristic can search any of them. The
 * iteration's answer is the first subtree, in that order, that reaches the
 * goal (so the answer is the one a single thread finds: the
 * lexicographically first optimal sequence), and its next bound is the
 * smallest over every subtree.
 *
 * slidedb-lookup-mpi spreads a search over MPI ranks with these. A program
 * installs hooks (sdb_split_install()); then every iteration of the
 * library's searches on pattern-database sets, and of its multi-tile
 * searches (not their counting and listing passes), is offered to the hook,
 * which may leave it to the library (small iterations are not worth
 * spreading) or cut it (sdb_split_cut()), hands subtrees to other processes, searches its
 * own share on its threads (sdb_split_start(), sdb_split_finish()) and gives
 * the library the combined result. The other processes open the same
 * search (sdb_split_open()) and cut it at the same bound and depth: the
 * same subtrees, in the same order, so only their numbers travel. May
 * change between minor versions, as the rest of this header may. */
/**@{*/
typedef struct sdb_split sdb_split;

/** What an iteration, or one process's share of it, came to. */
typedef struct sdb_split_result {
	int found;                     /**< a subtree reached the goal */
	int subtree;                   /**< the first that did (in order) */
	int length;                    /**< its moves */
	uint8_t path[SDB_MAX_MOVES];   /**< the moves, in the search's own numbering:
	                                    to be handed back to the library as they are */
	int next_bound;                /**< the smallest f cut off (INT_MAX: none) */
	uint64_t nodes;                /**< nodes this process's threads searched */
	int stopped;                   /**< a limit, or sdb_split_stop(), stopped them */
	char error[256];               /**< a hook's failure, said by the search's error */
} sdb_split_result;

/** Called by the threads of sdb_split_start() for their next subtree:
 * its number, or -1 when there is none left for them. */
typedef int (*sdb_split_take_fn)(void *ctx);
/** Called by those threads when a subtree was searched to the end
 * without reaching the goal (a subtree that a restart may skip). */
typedef void (*sdb_split_done_fn)(void *ctx, int subtree);

/** The hooks of a program that runs iterations itself. */
typedef struct sdb_split_hooks {
	/** Run the iteration at @p bound of @p sp's search (the last took
	 * @p last_nodes nodes; 0 for the first) and fill @p res (found,
	 * subtree, length, path, next_bound, stopped): return 0; or return 1
	 * to leave it to the library (its threads once the last iteration took
	 * 65,536 nodes); or an error (SDB_*, with res->error saying
	 * what), which ends the search. */
	int (*iteration)(void *ctx, sdb_split *sp, int bound, uint64_t last_nodes,
	                 sdb_split_result *res);
	void *ctx;
} sdb_split_hooks;

/** @brief Offer every splittable iteration of this process's searches to
 * @p hooks (NULL: none). Not thread-safe: call it before any search. */
SDB_API void sdb_split_install(const sdb_split_hooks *hooks);

/** @brief Open, in another process, the search that sdb_answer_search() runs from
 * @p start to @p goal with the sets named @p sets of @p db (as
 * sdb_split_heuristic() names them), opened once per database handle; a
 * multi-tile search's name ("mtm-split-...") opens its tables, built in
 * memory as the first process built them.
 * @return 0, or the errors of sdb_heuristic_open(). */
SDB_API int sdb_split_open(sdb_split **sp, const sdb_db *db, const char *sets,
                           const sdb_board *start, const sdb_board *goal);

/** @brief Close what sdb_split_open() opened. NULL is ok. */
SDB_API void sdb_split_close(sdb_split *sp);

/** @brief The sets the search takes its bounds from ("A+B"; a multi-tile
 * search: "mtm-split-" and what its tables are). */
SDB_API const char *sdb_split_heuristic(const sdb_split *sp);

/** @brief The search's start and goal, as the caller gave them. */
SDB_API void sdb_split_boards(const sdb_split *sp, sdb_board *start, sdb_board *goal);

/** @brief Cut the iteration at @p bound into subtrees: at *@p depth moves,
 * or, when *@p depth is 0, at the smallest even depth from 4 that gives at
 * least @p want of them (*@p depth says which). The same bound and depth
 * give the same subtrees, in the same order, in every process.
 * @return how many (>= 0; a goal met above the depth ends the list and is
 * the library's to answer), or #SDB_ENOMEM. */
SDB_API int sdb_split_cut(sdb_split *sp, int bound, int *depth, int want);

/** @brief Search subtrees of the last cut on @p threads threads of their
 * own, each taking the next from @p take until it gives -1, and calling
 * @p done (may be NULL) after each searched to the end without the goal.
 * Returns at once (unless not one thread could be started: then it
 * searches on the caller's thread first); sdb_split_finish() waits. A subtree after one that
 * reached the goal (here, or as sdb_split_abandon() says) is skipped.
 * @return 0, or #SDB_ENOMEM. */
SDB_API int sdb_split_start(sdb_split *sp, int threads, sdb_split_take_fn take,
                            sdb_split_done_fn done, void *ctx);

/** @brief How many of the threads of sdb_split_start() are still at work. */
SDB_API int sdb_split_running(sdb_split *sp);

/** @brief Claim up to @p count consecutive subtrees of the last cut, in
 * order, skipping those marked done; thread-safe, and what sdb_split_take()
 * takes from. @return how many (0: none left), the first in *@p first. */
SDB_API int sdb_split_claim(sdb_split *sp, int count, int *first);

/** @brief A take function for sdb_split_start() (ctx: the sdb_split): one
 * subtree by sdb_split_claim(). */
SDB_API int sdb_split_take(void *sp);

/** @brief Mark a subtree of the last cut as searched (a restart's): it is
 * never claimed. */
SDB_API void sdb_split_mark_done(sdb_split *sp, int subtree);

/** @brief Whether a subtree of the last cut is marked done (searched here,
 * or marked). */
SDB_API int sdb_split_is_done(sdb_split *sp, int subtree);

/** @brief Subtrees after @p subtree need not be searched: one at or before
 * it reached the goal. Thread-safe. */
SDB_API void sdb_split_abandon(sdb_split *sp, int subtree);

/** @brief Stop every thread of the iteration (another process hit a
 * limit). Thread-safe. */
SDB_API void sdb_split_stop(sdb_split *sp);

/** @brief Count @p nodes searched elsewhere into the search's limits and
 * progress. Thread-safe. */
SDB_API void sdb_split_add_nodes(sdb_split *sp, uint64_t nodes);

/** @brief Nodes the search has counted: its own threads', the cuts', and
 * those added. */
SDB_API uint64_t sdb_split_nodes(sdb_split *sp);

/** @brief The search's limits (time, nodes, the caller's poll) looked at
 * now, from the thread that runs the hook: 1 when the search must stop
 * (its threads are told). */
SDB_API int sdb_split_poll(sdb_split *sp);

/** @brief What this process's threads found so far: res->found, subtree,
 * length and path of the first subtree that reached the goal here. */
SDB_API void sdb_split_found(sdb_split *sp, sdb_split_result *res);

/** @brief The smallest f cut off so far in this process's share (INT_MAX:
 * none): a lower bound of the next bound, as a restart keeps it. */
SDB_API int sdb_split_next_bound(sdb_split *sp);

/** @brief Wait for the threads of sdb_split_start() and give this
 * process's share. @return 0, or #SDB_ENOMEM. */
SDB_API int sdb_split_finish(sdb_split *sp, sdb_split_result *res);
/**@}*/

/** @name Tuning for tests and benchmarks
 *
 * What the tests turn to reach, on small boards, what otherwise happens only
 * on large ones (a table stored in chunks, a verify split over threads and
 * slices, a search split at every iteration, a proof read in place) and to
 * race programs against a compact. Process-wide, for tests and benchmarks
 * only: a program that wants them reads them from wherever it likes (the
 * slidedb programs read SLIDEDB_CHUNK_BYTES, SLIDEDB_COMPACT_PAUSE,
 * SLIDEDB_VERIFY_BYTES, SLIDEDB_VERIFY_SLICE, SLIDEDB_SPLIT_NODES and
 * SLIDEDB_PROVE_IN_PLACE from their environment) and hands them over here;
 * the library itself reads no environment for them. Each value is read
 * where its work begins (a writer, a compact, a verify, a search), never on
 * a hot path. Set it before other threads use the library. */
/**@{*/
/** @brief Values that change how work is split, never what it computes
 * (but sdb_db_compact()'s pause). 0 leaves a value at its default. Start from
 * #SDB_TUNING_INIT. */
typedef struct sdb_tuning {
	unsigned version;       /**< #SDB_TUNING_VERSION */
	uint64_t chunk_bytes;   /**< store every two-bit table over this many bytes in
	                             chunks of it: a power of two, 4096 .. 128 MiB
	                             (default: chunks of 128 MiB past 4 GiB - 1) */
	double compact_pause;   /**< seconds sdb_db_compact() waits between its copy and
	                             the rename, under 3600 (default 0) */
	uint64_t verify_bytes;  /**< bytes of a table a verifying thread is started
	                             for, at least 4096 (default 16 MiB) */
	uint64_t verify_slice;  /**< bytes a paced verify checks between looks at
	                             its pace, at least 4096 (default 64 MiB) */
	int64_t split_nodes;    /**< nodes an iteration of a search must take for
	                             the next one to be split over threads;
	                             -1: the default (0 splits every one) */
	int prove_in_place;     /**< 1: a pattern table is proved as stored, never
	                             from a copy in another layout (default 0) */
	int mtm_split_7_8;      /**< 1: a multi-tile search of a 4x4 whose goal's
	                             blank is home in a corner builds split tables of
	                             groups 7-8 (about 12 minutes and 5.5 GB on 2
	                             threads, 1.6 GB kept; a ninetieth of the nodes)
	                             instead of 5-5-5 (default 0). The answers are
	                             the same; the search's name says which. */
} sdb_tuning;
#define SDB_TUNING_VERSION 2
#define SDB_TUNING_INIT { SDB_TUNING_VERSION, 0, 0, 0, 0, -1, 0, 0 }

/** @brief Tune the library for this process (NULL: the defaults again).
 * Nothing changes unless every value is valid.
 * @return 0, or #SDB_EINVAL naming the value out of range (or another
 * version of the struct). */
SDB_API int sdb_engine_tune(const sdb_tuning *t);
/**@}*/

#ifdef __cplusplus
}
#endif
#endif /* SLIDEDB_ENGINE_H */
