/* The double-dummy solver of bot/ai/solver.py, compiled: the same search step for step.
 *
 * Everything here mirrors bot/ai/solver.py (``Solver``) and bot/game/tricks.py
 * (``playable_mask``): the legal cards, the marriage leads, the move order, the cut at a
 * trick's start, the transposition table's key and bounds. The same search visits the same
 * nodes and returns the same values; tests/ai/test_solver.py compares both on random
 * positions of every preset, and the engine's own legal moves against these.
 *
 * A card is suit * 8 + rank (bot/game/cards.py), a hand a 32-bit mask, trump -1 for none.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INF 10000
#define RQ 4
#define RK 5
#define MAX_SEATS 4
#define MAX_MOVES 48 /* every card of a hand (at most 32) and two per marriage (8) */

enum { BEAT_NONE = 0, BEAT_FOLLOW = 1, BEAT_ALWAYS = 2 };

static const int RANK_POINTS[8] = {0, 0, 0, 2, 3, 4, 10, 11};
static const int ORDER_VALUES[4] = {40, 60, 80, 100};
static int BYTE_POINTS[256];

#define CARD_POINTS(c) (RANK_POINTS[(c) & 7])
#define SUIT_MASK(s) ((uint32_t)0xFFu << (8 * (s)))
static const uint32_t KINGS = 0x20202020u;  /* rank K of every suit */
static const uint32_t QUEENS = 0x10101010u;

static inline int mask_points(uint32_t m) {
    return BYTE_POINTS[m & 0xFF] + BYTE_POINTS[m >> 8 & 0xFF] + BYTE_POINTS[m >> 16 & 0xFF] +
           BYTE_POINTS[m >> 24];
}

static inline int marriage_count(uint32_t m) {
    uint32_t k = m & KINGS & (m & QUEENS) << 1; /* a bit at each king with its queen */
    return (int)((k >> 5 & 1) + (k >> 13 & 1) + (k >> 21 & 1) + (k >> 29 & 1));
}

/* bot.game.cards.beats: a higher card of the suit, or a trump over a non-trump */
static inline int beats(int c, int best, int trump) {
    return ((c >> 3) == (best >> 3) && c > best) || ((c >> 3) == trump && (best >> 3) != trump);
}

/* bot.game.cards.BEATERS[trump][best] */
static inline uint32_t beaters(int best, int trump) {
    int s = best >> 3;
    uint32_t above = SUIT_MASK(s) & ~(uint32_t)((2ull << best) - 1);
    if (trump >= 0 && s != trump) above |= SUIT_MASK(trump);
    return above;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    int n;
    int seat[MAX_SEATS];
    int card[MAX_SEATS];
} Trick;

/* One transposition-table entry: the key (hands of every seat, the seat to lead, trump,
 * marriages declared where values go by order, whether declaring is allowed) and bounds. */
typedef struct {
    uint64_t a, b;  /* hands of seats 0-1 and 2-3 */
    uint32_t meta;  /* seat | trump + 1 << 8 | ndecl << 16 | declare << 24 | 1 << 31 (used) */
    int16_t lo, hi;
} Entry;

typedef struct {
    PyObject_HEAD
    int k;                  /* active seats */
    int seats;              /* length of the hands list */
    int order[MAX_SEATS];
    int nxt[MAX_SEATS];
    uint32_t maxside;       /* seat bits */
    int mvals[MAX_SEATS][4];
    int top[MAX_SEATS];
    int by_order, trump_locked, must_beat, must_trump;
    uint32_t hands[MAX_SEATS];
    Entry *tt;
    size_t cap, count;
    long long nodes, node_limit;
    double deadline;
    int aborted;    /* the node allowance or the deadline ran out */
    int no_memory;  /* the table could not grow */
    int busy;       /* a search runs (without the GIL): one thread at a time */
} Search;

/* ---- rules: bot.game.tricks.playable_mask ----------------------------------------------- */

static inline int winning_card(const Trick *t, int trump) {
    int best = t->card[0];
    for (int i = 1; i < t->n; i++)
        if (beats(t->card[i], best, trump)) best = t->card[i];
    return best;
}

static uint32_t legal_mask(const Search *s, uint32_t hand, const Trick *t, int trump) {
    if (!t->n) return hand;
    uint32_t follow = hand & SUIT_MASK(t->card[0] >> 3);
    uint32_t cand;
    if (follow)
        cand = follow;
    else if (s->must_trump && trump >= 0 && (hand & SUIT_MASK(trump)))
        cand = hand & SUIT_MASK(trump);
    else
        cand = hand;
    if (s->must_beat == BEAT_ALWAYS || (s->must_beat == BEAT_FOLLOW && follow)) {
        uint32_t b = cand & beaters(winning_card(t, trump), trump);
        if (b) cand = b;
    }
    return cand;
}

/* (card, marriage suit or -1) pairs, in the order of Solver.moves */
static int gen_moves(const Search *s, uint32_t hand, const Trick *t, int trump, int declare,
                     int *cards, int *suits) {
    uint32_t m = legal_mask(s, hand, t, trump);
    int n = 0;
    while (m) {
        int c = __builtin_ctz(m);
        m &= m - 1;
        cards[n] = c;
        suits[n++] = -1;
    }
    if (declare && !t->n) {
        for (int su = 0; su < 4; su++) {
            int kc = su * 8 + RK, qc = su * 8 + RQ;
            if ((hand >> kc & 1) && (hand >> qc & 1)) {
                cards[n] = qc;
                suits[n++] = su;
                cards[n] = kc;
                suits[n++] = su;
            }
        }
    }
    return n;
}

/* Solver._order_key as one int: the tuples' groups (-2, 0, 1) do not overlap. */
static int order_key(const Search *s, int c, int suit, const Trick *t, int trump, int maximise) {
    if (suit >= 0) return -200 - c;
    if (!t->n) return -(c & 7) - ((c >> 3) == trump ? 8 : 0);
    int best_seat = t->seat[0], best = t->card[0];
    for (int i = 1; i < t->n; i++)
        if (beats(t->card[i], best, trump)) {
            best_seat = t->seat[i];
            best = t->card[i];
        }
    if (beats(c, best, trump)) return CARD_POINTS(c) + ((c >> 3) == trump ? 20 : 0);
    int friend_ = ((s->maxside >> best_seat & 1) != 0) == (maximise != 0);
    return 100 + (friend_ ? -CARD_POINTS(c) : CARD_POINTS(c));
}

/* ---- the transposition table ------------------------------------------------------------ */

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static inline size_t slot_of(const Search *s, uint64_t a, uint64_t b, uint32_t meta) {
    return (size_t)(mix(a ^ mix(b ^ meta)) & (s->cap - 1));
}

static Entry *tt_find(const Search *s, uint64_t a, uint64_t b, uint32_t meta) {
    if (!s->tt) return NULL;
    size_t i = slot_of(s, a, b, meta);
    for (;;) {
        Entry *e = &s->tt[i];
        if (!e->meta) return NULL;
        if (e->meta == meta && e->a == a && e->b == b) return e;
        i = (i + 1) & (s->cap - 1);
    }
}

static int tt_grow(Search *s) {
    size_t cap = s->cap ? s->cap * 2 : 1024;
    Entry *fresh = calloc(cap, sizeof(Entry));
    if (!fresh) return 0;
    Entry *old = s->tt;
    size_t oldcap = s->cap;
    s->tt = fresh;
    s->cap = cap;
    for (size_t j = 0; j < oldcap; j++) {
        Entry *e = &old[j];
        if (!e->meta) continue;
        size_t i = slot_of(s, e->a, e->b, e->meta);
        while (s->tt[i].meta) i = (i + 1) & (cap - 1);
        s->tt[i] = *e;
    }
    free(old);
    return 1;
}

static void tt_store(Search *s, uint64_t a, uint64_t b, uint32_t meta, int lo, int hi) {
    Entry *e = tt_find(s, a, b, meta);
    if (!e) {
        if ((s->count + 1) * 2 > s->cap && !tt_grow(s)) {
            /* no memory for more: the search stays exact, it only forgets this bound */
            s->no_memory = 1;
            return;
        }
        size_t i = slot_of(s, a, b, meta);
        while (s->tt[i].meta) i = (i + 1) & (s->cap - 1);
        e = &s->tt[i];
        e->a = a;
        e->b = b;
        e->meta = meta;
        s->count++;
    }
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
}

/* ---- the search: Solver.value, Solver._search, Solver.after ----------------------------- */

static int value(Search *s, const Trick *t, int seat, int trump, int ndecl, int declare,
                 int alpha, int beta);

static int after(Search *s, const Trick *t, int seat, int trump, int ndecl, int declare, int c,
                 int suit, int alpha, int beta) {
    int gain = 0;
    if (suit >= 0) {
        int val = s->by_order ? ORDER_VALUES[ndecl < 3 ? ndecl : 3] : s->mvals[seat][suit];
        if (s->maxside >> seat & 1) gain = val;
        ndecl++;
        if (!s->trump_locked) trump = suit;
    }
    s->hands[seat] ^= 1u << c;
    Trick nt = *t;
    nt.seat[nt.n] = seat;
    nt.card[nt.n] = c;
    nt.n++;
    int r;
    if (nt.n < s->k) {
        r = gain + value(s, &nt, s->nxt[seat], trump, ndecl, declare, alpha - gain, beta - gain);
    } else {
        int w = nt.seat[0], best = nt.card[0];
        int pts = CARD_POINTS(best);
        for (int i = 1; i < nt.n; i++) {
            int x = nt.card[i];
            pts += CARD_POINTS(x);
            if (beats(x, best, trump)) {
                w = nt.seat[i];
                best = x;
            }
        }
        if (s->maxside >> w & 1) gain += pts;
        Trick empty = {0};
        r = gain + value(s, &empty, w, trump, ndecl, 1, alpha - gain, beta - gain);
    }
    s->hands[seat] ^= 1u << c;
    return r;
}

static int search(Search *s, const Trick *t, int seat, int trump, int ndecl, int declare,
                  int alpha, int beta) {
    int maximise = (int)(s->maxside >> seat & 1);
    int cards[MAX_MOVES], suits[MAX_MOVES], keys[MAX_MOVES];
    int n = gen_moves(s, s->hands[seat], t, trump, declare, cards, suits);
    if (n > 1) {
        /* a stable insertion sort, as Python's sort keeps equal keys in order */
        for (int i = 0; i < n; i++) keys[i] = order_key(s, cards[i], suits[i], t, trump, maximise);
        for (int i = 1; i < n; i++) {
            int kc = cards[i], ks = suits[i], kk = keys[i], j = i - 1;
            while (j >= 0 && keys[j] > kk) {
                cards[j + 1] = cards[j];
                suits[j + 1] = suits[j];
                keys[j + 1] = keys[j];
                j--;
            }
            cards[j + 1] = kc;
            suits[j + 1] = ks;
            keys[j + 1] = kk;
        }
    }
    int best = maximise ? -INF : INF;
    for (int i = 0; i < n; i++) {
        int v = after(s, t, seat, trump, ndecl, declare, cards[i], suits[i], alpha, beta);
        if (s->aborted) return 0;
        if (maximise) {
            if (v > best) {
                best = v;
                if (v > alpha) alpha = v;
            }
        } else if (v < best) {
            best = v;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    return best;
}

static int value(Search *s, const Trick *t, int seat, int trump, int ndecl, int declare,
                 int alpha, int beta) {
    s->nodes++;
    if (s->nodes > s->node_limit || (!(s->nodes & 255) && now_seconds() > s->deadline)) {
        s->aborted = 1;
        return 0;
    }
    if (t->n) return search(s, t, seat, trump, ndecl, declare, alpha, beta);
    if (!s->hands[seat]) return 0;
    if (beta <= 0) return 0; /* no side loses points it has taken */
    uint32_t left = 0;
    for (int p = 0; p < s->seats; p++) left |= s->hands[p];
    int most = mask_points(left);
    for (int p = 0; p < s->seats; p++)
        if (s->maxside >> p & 1) most += marriage_count(s->hands[p]) * s->top[p];
    if (most <= alpha) return most;
    uint64_t a = (uint64_t)s->hands[0] | (uint64_t)s->hands[1] << 32;
    uint64_t b = (uint64_t)s->hands[2] | (uint64_t)s->hands[3] << 32;
    uint32_t meta = (uint32_t)seat | (uint32_t)(trump + 1) << 8 |
                    (uint32_t)(s->by_order ? ndecl & 0xFF : 0) << 16 |
                    (uint32_t)(declare ? 1 : 0) << 24 | 1u << 31;
    int lo = -INF, hi = INF;
    Entry *e = tt_find(s, a, b, meta);
    if (e) {
        lo = e->lo;
        hi = e->hi;
    }
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (lo == hi) return lo;
    int a0 = alpha > lo ? alpha : lo, b0 = beta < hi ? beta : hi;
    int v = search(s, t, seat, trump, ndecl, declare, a0, b0);
    if (s->aborted) return 0;
    if (v <= a0)
        hi = v;
    else if (v >= b0)
        lo = v;
    else
        lo = hi = v;
    tt_store(s, a, b, meta, lo, hi);
    return v;
}

/* ---- the Python type -------------------------------------------------------------------- */

static int read_hands(Search *s, PyObject *hands) {
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence of ints");
    if (!seq) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != s->seats) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "expected %d hands, got %zd", s->seats, n);
        return 0;
    }
    memset(s->hands, 0, sizeof s->hands);
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long h = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return 0;
        }
        s->hands[i] = (uint32_t)h;
    }
    Py_DECREF(seq);
    return 1;
}

static int read_trick(const Search *s, PyObject *trick, Trick *t) {
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence of (seat, card)");
    if (!seq) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n >= s->k) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a trick in play has fewer cards than seats");
        return 0;
    }
    t->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        int seat, card;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &seat, &card)) {
            Py_DECREF(seq);
            return 0;
        }
        if (seat < 0 || seat >= s->seats || card < 0 || card > 31) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a trick card out of range");
            return 0;
        }
        t->seat[i] = seat;
        t->card[i] = card;
    }
    Py_DECREF(seq);
    return 1;
}

static int check_seat_trump(const Search *s, int seat, int trump) {
    if (seat < 0 || seat >= s->seats || trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "seat or trump out of range");
        return 0;
    }
    return 1;
}

static void set_deadline(Search *s, double seconds_left) {
    s->deadline = now_seconds() + seconds_left; /* inf stays inf */
    s->aborted = 0;
    s->busy = 1;
}

static int enter(Search *s) {
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is running in another thread");
        return 0;
    }
    return 1;
}

static PyObject *finish(Search *s, int v) {
    s->busy = 0;
    if (s->aborted) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static int Search_init(Search *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"seats", "order", "maxside", "marriage_values", "top_marriage",
                             "by_order", "trump_locked", "must_beat", "must_trump", NULL};
    int seats, maxside, by_order, trump_locked, must_beat, must_trump;
    PyObject *order, *mvals, *top;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOiOOppip", kwlist, &seats, &order, &maxside,
                                     &mvals, &top, &by_order, &trump_locked, &must_beat,
                                     &must_trump))
        return -1;
    if (!enter(self)) return -1;
    if (seats < 2 || seats > MAX_SEATS || must_beat < 0 || must_beat > 2) {
        PyErr_SetString(PyExc_ValueError, "seats or must_beat out of range");
        return -1;
    }
    self->seats = seats;
    self->maxside = (uint32_t)maxside;
    self->by_order = by_order;
    self->trump_locked = trump_locked;
    self->must_beat = must_beat;
    self->must_trump = must_trump;
    PyObject *seq = PySequence_Fast(order, "order must be a sequence of seats");
    if (!seq) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k < 2 || k > seats) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "order must name 2 to seats seats");
        return -1;
    }
    self->k = (int)k;
    for (Py_ssize_t i = 0; i < k; i++) {
        long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred() || p < 0 || p >= seats) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a seat out of range");
            return -1;
        }
        self->order[i] = (int)p;
    }
    Py_DECREF(seq);
    for (int i = 0; i < self->k; i++) self->nxt[self->order[i]] = self->order[(i + 1) % self->k];
    for (int p = 0; p < seats; p++) {
        PyObject *row = PySequence_GetItem(mvals, p);
        if (!row) return -1;
        for (int su = 0; su < 4; su++) {
            PyObject *x = PySequence_GetItem(row, su);
            if (!x) {
                Py_DECREF(row);
                return -1;
            }
            self->mvals[p][su] = (int)PyLong_AsLong(x);
            Py_DECREF(x);
        }
        Py_DECREF(row);
        PyObject *x = PySequence_GetItem(top, p);
        if (!x) return -1;
        self->top[p] = (int)PyLong_AsLong(x);
        Py_DECREF(x);
        if (PyErr_Occurred()) return -1;
    }
    free(self->tt);
    self->tt = NULL;
    self->cap = self->count = 0;
    self->nodes = 0;
    self->node_limit = (long long)1 << 62;
    self->aborted = self->no_memory = 0;
    return 0;
}

static void Search_dealloc(Search *self) {
    free(self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* after(hands, trick, seat, trump, ndecl, declare, card, suit, alpha, beta, seconds_left) */
static PyObject *Search_after(Search *self, PyObject *args) {
    PyObject *hands, *trick;
    int seat, trump, ndecl, declare, card, suit, alpha, beta;
    double left;
    if (!PyArg_ParseTuple(args, "OOiiipiiiid", &hands, &trick, &seat, &trump, &ndecl, &declare,
                          &card, &suit, &alpha, &beta, &left))
        return NULL;
    Trick t;
    if (!read_hands(self, hands) || !read_trick(self, trick, &t) ||
        !check_seat_trump(self, seat, trump))
        return NULL;
    if (card < 0 || card > 31 || suit < -1 || suit > 3) {
        PyErr_SetString(PyExc_ValueError, "card or suit out of range");
        return NULL;
    }
    if (!enter(self)) return NULL;
    set_deadline(self, left);
    int v;
    /* the search touches no Python object: other threads run meanwhile */
    Py_BEGIN_ALLOW_THREADS
    v = after(self, &t, seat, trump, ndecl, declare, card, suit, alpha, beta);
    Py_END_ALLOW_THREADS
    return finish(self, v);
}

/* value(hands, trick, seat, trump, ndecl, declare, alpha, beta, seconds_left) */
static PyObject *Search_value(Search *self, PyObject *args) {
    PyObject *hands, *trick;
    int seat, trump, ndecl, declare, alpha, beta;
    double left;
    if (!PyArg_ParseTuple(args, "OOiiipiid", &hands, &trick, &seat, &trump, &ndecl, &declare,
                          &alpha, &beta, &left))
        return NULL;
    Trick t;
    if (!read_hands(self, hands) || !read_trick(self, trick, &t) ||
        !check_seat_trump(self, seat, trump))
        return NULL;
    if (!enter(self)) return NULL;
    set_deadline(self, left);
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = value(self, &t, seat, trump, ndecl, declare, alpha, beta);
    Py_END_ALLOW_THREADS
    return finish(self, v);
}

/* legal(hand, trick, trump): the mask of the cards that may be played */
static PyObject *Search_legal(Search *self, PyObject *args) {
    unsigned long hand;
    PyObject *trick;
    int trump;
    if (!PyArg_ParseTuple(args, "kOi", &hand, &trick, &trump)) return NULL;
    Trick t;
    if (!read_trick(self, trick, &t)) return NULL;
    return PyLong_FromUnsignedLong(legal_mask(self, (uint32_t)hand, &t, trump));
}

/* moves(hand, trick, trump, declare): [(card, marriage suit or -1), ...] */
static PyObject *Search_moves(Search *self, PyObject *args) {
    unsigned long hand;
    PyObject *trick;
    int trump, declare;
    if (!PyArg_ParseTuple(args, "kOip", &hand, &trick, &trump, &declare)) return NULL;
    Trick t;
    if (!read_trick(self, trick, &t)) return NULL;
    int cards[MAX_MOVES], suits[MAX_MOVES];
    int n = gen_moves(self, (uint32_t)hand, &t, trump, declare, cards, suits);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(ii)", cards[i], suits[i]);
        if (!pair) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, pair);
    }
    return out;
}

static PyObject *Search_get_nodes(Search *self, void *closure) {
    return PyLong_FromLongLong(self->nodes);
}

static int Search_set_nodes(Search *self, PyObject *v, void *closure) {
    long long n = v ? PyLong_AsLongLong(v) : 0;
    if (PyErr_Occurred()) return -1;
    self->nodes = n;
    return 0;
}

static PyObject *Search_get_node_limit(Search *self, void *closure) {
    return PyLong_FromLongLong(self->node_limit);
}

static int Search_set_node_limit(Search *self, PyObject *v, void *closure) {
    long long n = v ? PyLong_AsLongLong(v) : 0;
    if (PyErr_Occurred()) return -1;
    self->node_limit = n;
    return 0;
}

static PyObject *Search_get_entries(Search *self, void *closure) {
    return PyLong_FromSize_t(self->count);
}

static PyMethodDef Search_methods[] = {
    {"after", (PyCFunction)Search_after, METH_VARARGS,
     "The value once seat plays card (declaring suit's marriage if >= 0); None if aborted."},
    {"value", (PyCFunction)Search_value, METH_VARARGS,
     "Points maxside takes from here on; None if aborted."},
    {"legal", (PyCFunction)Search_legal, METH_VARARGS, "Mask of the cards that may be played."},
    {"moves", (PyCFunction)Search_moves, METH_VARARGS, "(card, marriage suit or -1) pairs."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, (setter)Search_set_nodes, "positions searched", NULL},
    {"node_limit", (getter)Search_get_node_limit, (setter)Search_set_node_limit,
     "positions allowed", NULL},
    {"entries", (getter)Search_get_entries, NULL, "transposition-table entries", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bot.ai._dds.Search",
    .tp_basicsize = sizeof(Search),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The double-dummy search of one deal for one side (bot.ai.solver.Solver).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds", "The compiled double-dummy solver (bot.ai.solver).", -1,
    NULL,
};

PyMODINIT_FUNC PyInit__dds(void) {
    for (int b = 0; b < 256; b++) {
        int p = 0;
        for (int r = 0; r < 8; r++)
            if (b >> r & 1) p += RANK_POINTS[r];
        BYTE_POINTS[b] = p;
    }
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
