#!/usr/bin/env python3
"""convert_output_first.py -- the mechanical part of issue 11 item 5 (clean public headers, one
argument order), to be run ONCE on the whole tree when no one else edits it, then committed
at once; Make/convert_output_first.patch holds the hand edits that go with it (template
parameter #error checks, the public-header test program; apply with git apply -3 and resolve
what no longer applies by hand). Delete both files after use.


  1. The local-extent globals T, X, Y, Z (Include/geometry.h) become LOC_T, LOC_X, LOC_Y,
     LOC_Z.  Identifiers only: comments, strings, character literals, struct members
     (.T, ->X), macro parameters (#define M(X) ...), macros named T..Z, and function
     parameters / block-scope variables named T..Z (with every use inside their scope) are
     left alone.
  2. Public functions whose output argument is not first get it first: definitions,
     prototypes and every call, nested and multi-line calls included (table REORDER below;
     the per-site SU(N) template suN_ops_template.h is matched through its name macros
     SUN_M_(_op), SUN_V_(_op), SUN_S_(_op), SUN_A_(_op), HR_CAT(SUN_TMPL_*_FLT, _to_dbl)).
     Calls quoted in comments and in Markdown code (`...` and fenced blocks) are reordered
     too, but only when their argument count matches exactly.

Usage:  convert_output_first.py [--dry-run] [--force] [-v] /absolute/path/of/TREE
Files: *.c *.h *.cu *.cuh *.cpp *.cc *.cxx *.hpp *.h.in *.c.in under TREE (build/, .git/ and autom4te.cache
skipped), and *.md for the reordering.  A file containing the text
"convert.py: keep TXYZ" keeps its own T, X, Y, Z (a test program that defines them).
The script refuses to run on a tree whose Include/geometry.h already declares LOC_T
(reordering twice would undo it); --force overrides.
"""
import os
import re
import sys

# ------------------------------------------------------------------ the reorder table
# name -> (number of arguments, indices of the outputs); the outputs move to the front in
# the given order, the other arguments keep their order.
REORDER = {}


def add(names, arity, outs):
    for n in names:
        REORDER[n] = (arity, tuple(outs))


MATS = ["suNg", "suNg_flt", "suNf", "suNf_flt"]
VECS = ["suNg_vector", "suNg_vector_flt", "suNf_vector", "suNf_vector_flt"]
SPINORS = ["suNf_spinor", "suNf_spinor_flt"]
ALGS = ["suNg_algebra_vector", "suNg_algebra_vector_flt"]
# suN_ops_template.h: (operation, arity) with the output last, per family
OPS = {
    "M": [("_copy", 2), ("_add", 3), ("_sub", 3), ("_minus", 2), ("_scale", 3),
          ("_scale_cmplx", 3), ("_mul_add", 4), ("_dagger", 2), ("_mul", 3), ("_mul_dag", 3),
          ("_dag_mul", 3), ("_mul_vec", 3), ("_dag_mul_vec", 3), ("_mul_vec_add", 3),
          ("_dag_mul_vec_add", 3), ("_to_flt", 2)],
    "V": [("_copy", 2), ("_add", 3), ("_sub", 3), ("_minus", 2), ("_add_i", 3), ("_sub_i", 3),
          ("_scale", 3), ("_scale_cmplx", 3), ("_mul_add", 4), ("_mul_add_cmplx", 4),
          ("_to_flt", 2)],
    "S": [("_copy", 2), ("_add", 3), ("_sub", 3), ("_minus", 2), ("_scale", 3),
          ("_scale_cmplx", 3), ("_mul_add", 4), ("_mul_add_cmplx", 4), ("_g5", 2),
          ("_g5_mul_add", 4), ("_mul_colour", 3), ("_to_flt", 2)],
    "A": [("_add", 3), ("_sub", 3), ("_scale", 3), ("_mul_add", 4), ("_to_flt", 2)],
}
FAMILY_TYPES = {"M": MATS, "V": VECS, "S": SPINORS, "A": ALGS}
TEMPLATE_MACRO = {"M": "SUN_M_", "V": "SUN_V_", "S": "SUN_S_", "A": "SUN_A_"}
TEMPLATE_FLT = {"M": "SUN_TMPL_MAT_FLT", "V": "SUN_TMPL_VEC_FLT",
                "S": "SUN_TMPL_SPINOR_FLT", "A": "SUN_TMPL_ALGEBRA_FLT"}
for fam, ops in OPS.items():
    for op, ar in ops:
        if op == "_to_flt":
            names = [t + op for t in FAMILY_TYPES[fam] if not t.endswith("_flt")]
            names += [t + "_to_dbl" for t in FAMILY_TYPES[fam] if t.endswith("_flt")]
            add(names, ar, [ar - 1])
            add(["@%s%s" % (fam, op), "@%s_to_dbl" % fam], ar, [ar - 1])
        else:
            add([t + op for t in FAMILY_TYPES[fam]], ar, [ar - 1])
            add(["@%s%s" % (fam, op)], ar, [ar - 1])

# The same operation has the same shape in every family: a pasted name P##_op(...) (P a
# macro parameter standing for any per-site type) is keyed by the operation alone.
_shapes = {}
for fam, ops in OPS.items():
    for op, ar in ops:
        for o in ([op, "_to_dbl"] if op == "_to_flt" else [op]):
            _shapes.setdefault(o, set()).add(ar)
for o, ars in _shapes.items():
    assert len(ars) == 1, o
    add(["@*" + o], ars.pop(), [0])
for k in [k for k in REORDER if k.startswith("@*")]:
    REORDER[k] = (REORDER[k][0], (REORDER[k][0] - 1,))

# suN.h: group operations of SU(NG)
add(["suNg_generator"], 2, [1])                  # (a, T)  -> (T, a)
add(["suNg_algebra_vector_to_matrix"], 2, [1])   # (v, X)  -> (X, v)
add(["suNg_project_to_algebra"], 2, [1])         # (M, v)  -> (v, M)
add(["suNg_exp", "suNg_exp_matrix"], 2, [1])     # (v, U)  -> (U, v)
# suN_generic.h: any dimension n, flat arrays
add(["cmat_zero", "cmat_unit"], 2, [1])          # (d, A)  -> (A, d)
add(["cmat_copy", "cmat_dagger"], 3, [2])        # (d, A, out) -> (out, d, A)
add(["cmat_mul", "cmat_mul_dag", "cmat_dag_mul"], 4, [3])
add(["suN_generator_info"], 4, [1, 2, 3])        # (a, kind, j, k) -> (kind, j, k, a)
add(["suN_generator", "suN_generator_traces", "suN_algebra_to_matrix",
     "suN_project_to_algebra", "suN_exp", "suN_exp_algebra"], 3, [2])
add(["suN_reunitarize"], 2, [1])                 # (n, U) -> (U, n), in place
# representation.h
add(["repr_from_name"], 2, [1])                  # (name, r) -> (r, name)
add(["repr_pair"], 4, [2, 3])                    # (r, idx, i, j) -> (i, j, r, idx)
add(["repr_map", "repr_generator", "repr_generator_traces", "repr_map_two_index_"], 4, [3])
add(["repr_map_adj_"], 3, [2])
add(["suNg_to_suNf", "suNf_generator", "suNf_generator_traces"], 2, [1])
# suN_random.h
add(["suN_random_haar", "suN_random_algebra"], 3, [2])   # (n, s, U) -> (U, n, s)
add(["suNg_random", "suNg_algebra_vector_random"], 2, [1])
# gamma.h
add(["hr_gamma_matrix"], 2, [1])                 # (mu, g) -> (g, mu)
add(["hr_sigma_matrix"], 3, [2])                 # (mu, nu, s) -> (s, mu, nu)
# random.h / random_inline.h
add(["rng_philox4x32_10"], 3, [2])               # (ctr, key, out) -> (out, ctr, key)
add(["rng_read_state", "rng_parse_state"], 2, [1])  # (f, st) -> (st, f)
# geometry.h
add(["geometry_read_input_keys"], 4, [1])        # (in, p, err, len) -> (p, in, err, len)
add(["geometry_read_input"], 2, [1])             # (in, p) -> (p, in)
add(["local_coordinates", "global_coordinates"], 2, [1])  # (ix, x) -> (x, ix)
# gauge_view.h
add(["gauge_view_link"], 4, [3])                 # (v, ix, mu, out) -> (out, v, ix, mu)
add(["gauge_view_store"], 5, [1])                # (v, mem, ix, mu, in) -> (mem, v, ix, mu, in)
# observables.h
add(["avr_plaquette_parts"], 3, [1, 2])          # (u, t, s) -> (t, s, u)
# archive.h
add(["archive_probe"], 4, [1])                   # (path, info, err, len) -> (info, path, ...)
add(["archive_read_checked"], 6, [3])            # (path, fmt, bc, u, err, len) -> (u, ...)
add(["archive_read"], 4, [3])                    # (path, fmt, bc, u) -> (u, path, fmt, bc)
add(["read_gauge_field"], 2, [1])                # (path, u) -> (u, path)
# propagator.h
add(["meson_correlators"], 5, [4])               # (prop, t0, nch, ch, corr) -> (corr, ...)
# inverters.h: the solution first, the result record last
add(["cg_solve", "cg_mixed_solve", "bicgstab_solve", "minres_solve"], 5, [2])
add(["cgne_solve", "cgnr_solve"], 6, [2])               # (M, b, x, mixed, p, res)
add(["cg_mshift_solve", "cg_mshift_mixed_solve"], 7, [4])  # (A, n, shift, b, x, p, res)
# boundary_conditions.h
add(["dirac_bc_read_input"], 2, [1])             # (in, bc) -> (bc, in)
# hmc.h: the fields a call writes first
add(["hmc_integrate"], 4, [1, 2])                # (h, u, p, tau) -> (u, p, h, tau)
add(["hmc_trajectory"], 3, [1])                  # (h, u, res) -> (u, h, res)
add(["hmc_reversibility"], 5, [2, 3, 4])         # (h, u, du, dp, dh) -> (du, dp, dh, h, u)
# fermion_monomials.h
add(["fermion_force_apply"], 4, [2])             # (f, D, p, eps) -> (p, f, D, eps)

RENAME = {"T": "LOC_T", "X": "LOC_X", "Y": "LOC_Y", "Z": "LOC_Z"}
KEEP_MARK = "convert.py: keep TXYZ"

# ------------------------------------------------------------------ tokenizer
TOKEN_RE = re.compile(r"""
   (?P<ws>(?:[ \t\r\n\f\v]|\\\r?\n)+)
 | (?P<comment>/\*.*?\*/|//(?:[^\n\\]|\\.|\\\n)*)
 | (?P<string>(?:L|u8|u|U)?"(?:[^"\\\n]|\\.|\\\n)*")
 | (?P<char>(?:L|u|U)?'(?:[^'\\\n]|\\.)*')
 | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
 | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
 | (?P<punct>->|\+\+|--|\#\#|<<=|>>=|[<>=!+\-*/%&|^]=|&&|\|\||<<|>>|\.\.\.|.)
""", re.S | re.X)


class Tok:
    __slots__ = ("kind", "text", "bol")

    def __init__(self, kind, text, bol=False):
        self.kind, self.text, self.bol = kind, text, bol


def tokenize(src):
    toks, pos, bol = [], 0, True
    while pos < len(src):
        m = TOKEN_RE.match(src, pos)
        kind = m.lastgroup
        text = m.group(kind)
        toks.append(Tok(kind, text, bol and kind not in ("ws", "comment")))
        if kind == "ws":
            if re.search(r"(?<!\\)\n", text) or (text.endswith("\n") and not text.endswith("\\\n")):
                bol = True
        elif kind != "comment":
            bol = False
        pos = m.end()
    return toks


def sig(toks, i, step):
    """Index of the next significant token from i in direction step, or -1."""
    while 0 <= i < len(toks):
        if toks[i].kind not in ("ws", "comment"):
            return i
        i += step
    return -1


def match_close(toks, i):
    """toks[i] is '(' '[' or '{': index of its partner (or len(toks) - 1)."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j].text if toks[j].kind == "punct" else None
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


# ------------------------------------------------------------------ reordering
def callee_at(toks, i):
    """If a reorderable callee starts at token i, return (key, index of its '(' )."""
    t = toks[i]
    if t.kind != "ident":
        return None
    p = sig(toks, i - 1, -1)
    if p >= 0 and toks[p].text in (".", "->"):
        return None
    j = sig(toks, i + 1, 1)
    if j < 0 or toks[j].text != "(":
        return None
    if t.text.startswith("_") and ("@*" + t.text) in REORDER:
        p = sig(toks, i - 1, -1)
        if p >= 0 and toks[p].text == "##":
            return "@*" + t.text, j
        return None
    if t.text in NAME_MACROS or t.text == "HR_CAT":
        # a template name: NAME_MACRO(_op)(...) or HR_CAT(TYPE_PARAM, _op)(...)
        k = match_close(toks, j)
        inner = [x.text for x in toks[j + 1:k] if x.kind not in ("ws", "comment")]
        n = sig(toks, k + 1, 1)
        key = None
        if t.text == "HR_CAT":
            if len(inner) == 3 and inner[1] == "," and family_of_param(inner[0]):
                key = "@" + family_of_param(inner[0]) + inner[2]
        elif len(inner) == 1:
            key = "@" + NAME_MACROS[t.text] + inner[0]
        if key in REORDER and n >= 0 and toks[n].text == "(":
            return key, n
        return None
    if t.text in REORDER:
        return t.text, j
    return None


# Macros that build a per-site type's function name from an operation, and their family;
# more are found in each file: #define NAME(op) HR_CAT(TYPE_PARAM, op).
NAME_MACROS_STATIC = {"SUN_M_": "M", "SUN_V_": "V", "SUN_S_": "S", "SUN_A_": "A",
                      "DIRAC_MR_": "M", "DIRAC_VR_": "V", "DIRAC_SR_": "S", "LA_SP_": "S"}
NAME_MACROS = dict(NAME_MACROS_STATIC)
NAME_MACRO_RE = re.compile(r"#\s*define\s+(\w+)\s*\(\s*(\w+)\s*\)\s*HR_CAT\s*\(\s*(\w+)\s*,"
                           r"\s*\2\s*\)")


def family_of_param(p):
    """Family (M, V, S, A) of a template type parameter such as SUN_TMPL_MAT_FLT."""
    if not re.match(r"^[A-Z0-9_]+$", p):
        return None
    for word, fam in (("ALGEBRA", "A"), ("SPINOR", "S"), ("VEC", "V"), ("MAT", "M")):
        if word in p:
            return fam
    return None


def find_name_macros(src):
    NAME_MACROS.clear()
    NAME_MACROS.update(NAME_MACROS_STATIC)
    for m in NAME_MACRO_RE.finditer(src):
        fam = family_of_param(m.group(3))
        if fam:
            NAME_MACROS[m.group(1)] = fam


def split_args(toks, lo, hi):
    """Arguments of the call whose parentheses are toks[lo] and toks[hi]: list of token lists
    (whitespace included), split at commas of depth 0."""
    args, cur, depth = [], [], 0
    for t in toks[lo + 1:hi]:
        if t.kind == "punct" and t.text in ("(", "[", "{"):
            depth += 1
        elif t.kind == "punct" and t.text in (")", "]", "}"):
            depth -= 1
        if depth == 0 and t.kind == "punct" and t.text == ",":
            args.append(cur)
            cur = []
        else:
            cur.append(t)
    args.append(cur)
    return args


def strip_ws(arg):
    """(leading whitespace, core tokens, trailing whitespace) of an argument."""
    a, b = 0, len(arg)
    while a < b and arg[a].kind == "ws":
        a += 1
    while b > a and arg[b - 1].kind == "ws":
        b -= 1
    return arg[:a], arg[a:b], arg[b:]


class Stats:
    def __init__(self):
        self.calls = {}
        self.skipped = []

    def hit(self, key):
        self.calls[key] = self.calls.get(key, 0) + 1


def reorder_text(toks, stats, where, strict_comment=False):
    """Return the text of toks with every table call reordered (recursively)."""
    out, i = [], 0
    while i < len(toks):
        c = callee_at(toks, i)
        if c is None:
            t = toks[i]
            if t.kind == "comment" and REORDER_IN_COMMENTS:
                out.append(reorder_comment(t.text, stats, where))
            else:
                out.append(t.text)
            i += 1
            continue
        key, lp = c
        rp = match_close(toks, lp)
        args = split_args(toks, lp, rp)
        arity, outs = REORDER[key]
        head = "".join(t.text for t in toks[i:lp + 1])
        if len(args) != arity or (len(args) == 1 and not strip_ws(args[0])[1]):
            if not strict_comment:
                stats.skipped.append("%s: %s with %d arguments (table: %d) left alone"
                                     % (where, key, len(args), arity))
            out.append(head)
            i = lp + 1
            continue
        cores = [reorder_text(strip_ws(a)[1], stats, where) for a in args]
        order = list(outs) + [k for k in range(arity) if k not in outs]
        pieces = []
        for slot, src in enumerate(order):
            lead, _, trail = strip_ws(args[slot])
            pieces.append("".join(t.text for t in lead) + cores[src] +
                          "".join(t.text for t in trail))
        out.append(head + ",".join(pieces) + ")")
        stats.hit(key)
        i = rp + 1
    return "".join(out)


REORDER_IN_COMMENTS = True


def reorder_comment(text, stats, where):
    """Reorder calls quoted in a comment, only where the argument count matches."""
    if not any(name in text for name in REORDER_NAMES):
        return text
    toks = tokenize_loose(text)
    return reorder_text(toks, stats, where + " (comment)", strict_comment=True)


def tokenize_loose(text):
    """Tokenize prose (comment or Markdown): quotes are ordinary punctuation."""
    toks = []
    for m in re.finditer(r"\s+|[A-Za-z_][A-Za-z_0-9]*|[0-9][A-Za-z0-9_.]*|->|.", text, re.S):
        s = m.group(0)
        kind = "ws" if s.isspace() else "ident" if re.match(r"[A-Za-z_]", s) else \
            "number" if s[0].isdigit() else "punct"
        toks.append(Tok(kind, s))
    return toks


REORDER_NAMES = set(k for k in REORDER if not k.startswith("@"))


# ------------------------------------------------------------------ renaming T X Y Z
C_TYPES = {"int", "double", "float", "char", "long", "short", "unsigned", "signed", "void",
           "size_t", "const", "volatile", "restrict", "_Bool", "bool", "register", "static"}
NOT_DECL_PREV = {"return", "case", "sizeof", "goto", "else", "do", "_Alignof", "defined"}


def type_like(name):
    return (name in C_TYPES or re.match(r"^(suN\w*|hr_\w+|\w+_t|\w+_field(_flt)?|spinor\w*|"
                                        r"geometry_\w+|gauge_view|dirac_\w+|FILE)$", name))


def rename_globals(toks, stats, where):
    """Rename T, X, Y, Z (the local-extent globals) in place in toks."""
    macro_shadow = set()      # object/function macros named T..Z defined in this file
    scopes = [set()]          # names declared in each open brace scope
    pending = set()           # parameters seen in the parenthesis group at file scope
    pending_ready = False     # pending belongs to a ')' just closed at file scope
    paren = 0
    decl_level = None         # (paren, brace) depth of a declaration statement in progress
    i, n = 0, len(toks)

    def depth_file():
        return all(s is None for s in scopes[1:])

    while i < n:
        t = toks[i]
        if t.kind == "punct" and t.text == "#" and t.bol:
            # preprocessor directive: up to the end of the logical line
            j = i + 1
            while j < n and not (toks[j].kind == "ws" and re.search(r"(?<!\\)\n", toks[j].text)):
                j += 1
            d = sig(toks, i + 1, 1)
            dname = toks[d].text if d >= 0 and d < j else ""
            params = set()
            if dname in ("define", "undef"):
                m = sig(toks, d + 1, 1)
                if m >= 0 and m < j and toks[m].text in RENAME:
                    if dname == "define":
                        macro_shadow.add(toks[m].text)
                    else:
                        macro_shadow.discard(toks[m].text)
                    i = j
                    continue
                if dname == "define" and m + 1 < j and toks[m + 1].text == "(":
                    k = match_close(toks, m + 1)
                    params = {x.text for x in toks[m + 1:k] if x.kind == "ident"}
                    params |= {"__VA_ARGS__"}
            for k in range(i, j):
                if toks[k].kind == "ident" and toks[k].text in RENAME:
                    name = toks[k].text
                    p = sig(toks, k - 1, -1)
                    if name in params or name in macro_shadow or \
                            (p >= 0 and toks[p].text in (".", "->", "#", "##")) or \
                            (k + 1 < j and toks[k + 1].text == "##"):
                        continue
                    if dname not in ("define", "if", "elif", "ifdef", "ifndef"):
                        continue
                    toks[k].text = RENAME[name]
                    stats.hit("rename " + name)
            i = j
            continue
        if t.kind == "punct":
            if t.text == "(":
                paren += 1
            elif t.text == ")":
                paren -= 1
                if paren == 0 and depth_file():
                    pending_ready = True
                if decl_level and paren < decl_level[0]:
                    decl_level = None
            elif t.text == "{":
                pv = sig(toks, i - 1, -1)
                if paren == 0 and pv >= 0 and toks[pv].kind == "string":
                    scopes.append(None)   # extern "C" { ... }: still file scope
                elif paren == 0:
                    if depth_file() and pending_ready:
                        scopes.append(set(pending))
                    else:
                        scopes.append(set())
                    pending, pending_ready = set(), False
                    if decl_level and decl_level[1] == len(scopes) - 1:
                        decl_level = None
            elif t.text == "}":
                if paren == 0 and len(scopes) > 1:
                    scopes.pop()
            elif t.text == ";":
                if paren == 0:
                    decl_level = None
                    if depth_file():
                        pending, pending_ready = set(), False
        if t.kind == "ident" and t.text in RENAME:
            name = t.text
            p = sig(toks, i - 1, -1)
            prev = toks[p] if p >= 0 else None
            is_member = prev is not None and prev.text in (".", "->")
            is_decl = False
            if prev is not None and prev.kind == "ident" and prev.text not in NOT_DECL_PREV:
                is_decl = True
            elif prev is not None and prev.text == "*":
                q = p
                while q >= 0 and toks[q].text in ("*", "const") or \
                        (q >= 0 and toks[q].kind in ("ws", "comment")):
                    q -= 1
                if q >= 0 and toks[q].kind == "ident" and type_like(toks[q].text):
                    is_decl = True
                elif q >= 0 and toks[q].text == "," and decl_level == (paren, len(scopes)):
                    is_decl = True
            elif prev is not None and prev.text == "," and decl_level == (paren, len(scopes)):
                is_decl = True
            if prev is not None and prev.text == "," and paren > 0 and decl_level is None:
                # parameter list of a function prototype/definition at file scope:
                # ", T" only after a type, handled above; here a plain argument
                pass
            if is_decl:
                decl_level = (paren, len(scopes)) if paren == 0 or len(scopes) > 1 else decl_level
                if depth_file() and paren == 0:
                    # a file-scope definition or extern declaration of the global
                    t.text = RENAME[name]
                    stats.hit("rename " + name)
                elif depth_file():
                    pending.add(name)  # a parameter
                else:
                    scopes[-1].add(name)
            elif not is_member and name not in macro_shadow and \
                    not any(s is not None and name in s for s in scopes):
                nx = sig(toks, i + 1, 1)
                if not (nx >= 0 and toks[nx].text == ":" and prev is not None and
                        prev.text in ("{", ";", "}")):  # a label
                    t.text = RENAME[name]
                    stats.hit("rename " + name)
        elif t.kind == "ident" and paren == 0 and decl_level is None:
            p = sig(toks, i - 1, -1)
            at_start = p < 0 or toks[p].text in (";", "{", "}", ")") or toks[p].kind == "ident"
            nx = sig(toks, i + 1, 1)
            while nx >= 0 and toks[nx].text == "*":
                nx = sig(toks, nx + 1, 1)
            if at_start and (type_like(t.text) or
                             (nx >= 0 and toks[nx].kind == "ident" and
                              t.text not in NOT_DECL_PREV and t.text not in ("if", "while"))):
                decl_level = (paren, len(scopes))
        elif t.kind == "ident" and type_like(t.text) and paren > 0:
            p = sig(toks, i - 1, -1)
            if p >= 0 and toks[p].text in ("(", ";"):   # for-init or parameter
                decl_level = (paren, len(scopes))
        i += 1


# ------------------------------------------------------------------ files
C_EXT = (".c", ".h", ".cu", ".cuh", ".cpp", ".cc", ".cxx", ".hpp", ".h.in", ".c.in")


def convert_c(path, stats, dry):
    src = open(path, encoding="utf-8").read()
    toks = tokenize(src)
    if "".join(t.text for t in toks) != src:
        raise SystemExit("tokenizer lost text in " + path)
    find_name_macros(src)
    if KEEP_MARK not in src:
        rename_globals(toks, stats, path)
    new = reorder_text(toks, stats, path)
    return src, new


FENCE_RE = re.compile(r"(```.*?```|`[^`\n]+`)", re.S)


def convert_md(path, stats, dry):
    src = open(path, encoding="utf-8").read()
    parts = FENCE_RE.split(src)
    for k in range(1, len(parts), 2):
        parts[k] = reorder_text(tokenize_loose(parts[k]), stats, path + " (md)",
                                strict_comment=True)
    return src, "".join(parts)


def main(argv):
    dry = "--dry-run" in argv
    force = "--force" in argv
    verbose = "-v" in argv
    roots = [a for a in argv if not a.startswith("-")]
    if len(roots) != 1:
        print(__doc__)
        return 2
    root = os.path.abspath(roots[0])
    print("convert.py: %s %s" % ("dry run on" if dry else "converting", root))
    geo = os.path.join(root, "Include", "geometry.h")
    if os.path.exists(geo) and re.search(r"extern\s+int\s+LOC_T\b", open(geo).read()) \
            and not force:
        print("convert.py: %s already converted (Include/geometry.h declares LOC_T); "
              "refusing to reorder twice (use --force)" % root, file=sys.stderr)
        return 1
    stats = Stats()
    changed = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in (".git", "build", "autom4te.cache", ".deps"))
        for f in sorted(filenames):
            path = os.path.join(dirpath, f)
            if f.endswith(C_EXT):
                src, new = convert_c(path, stats, dry)
            elif f.endswith(".md"):
                src, new = convert_md(path, stats, dry)
            else:
                continue
            if new != src:
                changed.append(path)
                if not dry:
                    open(path, "w", encoding="utf-8").write(new)
    for s in stats.skipped:
        print("note:", s, file=sys.stderr)
    print("%s %d files" % ("would change" if dry else "changed", len(changed)))
    if verbose:
        for p in changed:
            print("  ", os.path.relpath(p, root))
        for k in sorted(stats.calls):
            print("  %-40s %d" % (k, stats.calls[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
