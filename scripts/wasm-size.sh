#!/usr/bin/env bash
# Size profile of a release wasm bundle: which crates and which std generics its code is.
#
#   scripts/wasm-size.sh [worker|app]     (default: worker; after a trunk release build)
#
# Takes target/wasm32-unknown-unknown/release/NAME.wasm (what trunk built), runs wasm-bindgen
# and `wasm-opt -Oz` as trunk does but keeping the function names (-g), and sums the function
# bodies by crate (the path's first segment; `core`/`alloc` are std generics instantiated for
# the project's types) and by cross-cutting kind (sorting, BTreeMap, hashing, Clone, serde,
# drop glue, formatting). The figures are the shipped code (the names section aside).
set -euo pipefail
cd "$(dirname "$0")/.."
NAME="${1:-worker}"
WASM="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/$NAME.wasm"
[ -f "$WASM" ] || { echo "no $WASM: run trunk build (release) first" >&2; exit 1; }
export PATH="$PWD/tools/binaryen/node_modules/.bin:$PATH"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
wasm-bindgen --target web --out-dir "$TMP" "$WASM"
wasm-opt -Oz -g --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$TMP/${NAME}_bg.wasm" -o "$TMP/named.wasm"
python3 - "$TMP/named.wasm" <<'PY'
# Function body sizes by name (name section) of a wasm file, grouped like a size profile.
import sys,re,collections,gzip
data=open(sys.argv[1],'rb').read()
def leb(b,i):
    r=s=0
    while True:
        x=b[i]; i+=1; r|=(x&0x7f)<<s; s+=7
        if x<0x80: return r,i
def name(b,i):
    n,i=leb(b,i); return b[i:i+n].decode('utf8','replace'),i+n
i=8; nimp=0; bodies=[]; names={}; datasz=0; sections={}
while i<len(data):
    sid=data[i]; i+=1; size,i=leb(data,i); end=i+size
    sections[sid]=sections.get(sid,0)+size
    if sid==2:
        cnt,j=leb(data,i)
        for _ in range(cnt):
            _,j=name(data,j); _,j=name(data,j); kind=data[j]; j+=1
            if kind==0: _,j=leb(data,j); nimp+=1
            elif kind==1: j+=1; fl,j=leb(data,j); _,j=leb(data,j); 
            elif kind==2:
                fl,j=leb(data,j); _,j=leb(data,j)
                if fl&1: _,j=leb(data,j)
            elif kind==3: j+=2
    elif sid==10:
        cnt,j=leb(data,i)
        for _ in range(cnt):
            sz,j=leb(data,j); bodies.append(sz); j+=sz
    elif sid==11: datasz+=size
    elif sid==0:
        nm,j=name(data,i)
        if nm=='name':
            while j<end:
                sub=data[j]; j+=1; ssz,j=leb(data,j); send=j+ssz
                if sub==1:
                    cnt,k=leb(data,j)
                    for _ in range(cnt):
                        idx,k=leb(data,k); s,k=name(data,k); names[idx]=s
                j=send
    i=end
by=collections.Counter(); cat=collections.Counter(); tot=sum(bodies)
for n,sz in enumerate(bodies):
    nm=re.sub(r'\[[0-9a-f]{16}\]','',names.get(n+nimp,'?'))
    m=re.match(r'<?(?:&(?:mut )?)?([a-z_][a-z0-9_]*)::',nm)
    by[m.group(1) if m else 'unnamed/other']+=sz
    low=nm.lower()
    for pat,label in [('slice::sort','std sort (stable+unstable, per element type)'),('hashbrown','hashbrown (HashMap/HashSet)'),('hash::map','hashbrown (HashMap/HashSet)'),('serde','serde / serde_json'),('drop_in_place','drop glue'),('fmt','formatting (Display/Debug/format!)'),('btree','BTreeMap/BTreeSet'),('clone::clone','Clone impls')]:
        if pat in low: cat[label]+=sz; break
print(f'{sys.argv[1]}: code section {sections.get(10,0)} B in {len(bodies)} functions, data {datasz} B, file {len(data)} B')
print('code by crate (function bodies):')
for k,v in by.most_common(30): print(f'  {v:9d} {100*v/tot:5.1f}%  {k}')
print('cross-cutting generic code (counted in the crates above as core/alloc/hashbrown/serde):')
for k,v in cat.most_common(): print(f'  {v:9d} {100*v/tot:5.1f}%  {k}')
PY
