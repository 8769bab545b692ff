//! Gates and bit-vector circuits over a SAT back end (Tseitin encoding with constant
//! propagation and structural hashing); bit vectors are `Vec<Lit>`, least significant bit first.

use crate::sat::{Lit, SatBackend};
use budget::hash::HashMap;

/// A circuit builder owning the SAT back end.
pub(crate) struct Circuit {
    sat: Box<dyn SatBackend>,
    and_gates: HashMap<(Lit, Lit), Lit>,
    xor_gates: HashMap<(Lit, Lit), Lit>,
}

pub(crate) type Bits = Vec<Lit>;

/// The fewest low bits whose sign extension is `bits` (at least 1).
fn signed_width(bits: &[Lit]) -> usize {
    let Some(&top) = bits.last() else { return 0 };
    let mut k = bits.len();
    while k > 1 && bits[k - 2] == top {
        k -= 1;
    }
    k
}

/// The fewest low bits whose zero extension is `bits`.
fn unsigned_width(bits: &[Lit]) -> usize {
    bits.iter().rposition(|&l| l != Lit::FALSE).map_or(0, |i| i + 1)
}

fn sign_extend(mut bits: Bits, width: usize) -> Bits {
    let fill = *bits.last().unwrap_or(&Lit::FALSE);
    bits.resize(width, fill);
    bits
}

impl Circuit {
    pub(crate) fn new(mut sat: Box<dyn SatBackend>) -> Circuit {
        let t = sat.new_var();
        debug_assert_eq!(t, 0);
        sat.add_clause(&[Lit::TRUE]);
        Circuit { sat, and_gates: HashMap::default(), xor_gates: HashMap::default() }
    }

    pub(crate) fn sat(&self) -> &dyn SatBackend {
        &*self.sat
    }
    pub(crate) fn sat_mut(&mut self) -> &mut dyn SatBackend {
        &mut *self.sat
    }

    pub(crate) fn fresh(&mut self) -> Lit {
        Lit::positive(self.sat.new_var())
    }

    pub(crate) fn fresh_bits(&mut self, width: u32) -> Bits {
        (0..width).map(|_| self.fresh()).collect()
    }

    pub(crate) fn clause(&mut self, lits: &[Lit]) {
        if lits.contains(&Lit::TRUE) {
            return;
        }
        let filtered: Vec<Lit> = lits.iter().copied().filter(|&l| l != Lit::FALSE).collect();
        self.sat.add_clause(&filtered);
    }

    pub(crate) fn and(&mut self, a: Lit, b: Lit) -> Lit {
        if a == Lit::FALSE || b == Lit::FALSE || a == !b {
            return Lit::FALSE;
        }
        if a == Lit::TRUE || a == b {
            return b;
        }
        if b == Lit::TRUE {
            return a;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(&o) = self.and_gates.get(&key) {
            return o;
        }
        let o = self.fresh();
        self.sat.add_clause(&[!o, a]);
        self.sat.add_clause(&[!o, b]);
        self.sat.add_clause(&[o, !a, !b]);
        self.and_gates.insert(key, o);
        o
    }

    pub(crate) fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    pub(crate) fn implies(&mut self, a: Lit, b: Lit) -> Lit {
        self.or(!a, b)
    }

    pub(crate) fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        if a.is_constant() {
            return if a == Lit::TRUE { !b } else { b };
        }
        if b.is_constant() {
            return if b == Lit::TRUE { !a } else { a };
        }
        if a == b {
            return Lit::FALSE;
        }
        if a == !b {
            return Lit::TRUE;
        }
        // normalise polarity: xor(!a, b) = !xor(a, b)
        let mut flip = false;
        let (mut a, mut b) = (a, b);
        if a.is_negated() {
            a = !a;
            flip = !flip;
        }
        if b.is_negated() {
            b = !b;
            flip = !flip;
        }
        let key = if a < b { (a, b) } else { (b, a) };
        let o = match self.xor_gates.get(&key) {
            Some(&o) => o,
            None => {
                let o = self.fresh();
                self.sat.add_clause(&[!o, a, b]);
                self.sat.add_clause(&[!o, !a, !b]);
                self.sat.add_clause(&[o, !a, b]);
                self.sat.add_clause(&[o, a, !b]);
                self.xor_gates.insert(key, o);
                o
            }
        };
        if flip {
            !o
        } else {
            o
        }
    }

    pub(crate) fn iff(&mut self, a: Lit, b: Lit) -> Lit {
        !self.xor(a, b)
    }

    /// `s ? t : e`.
    pub(crate) fn mux(&mut self, s: Lit, t: Lit, e: Lit) -> Lit {
        if s == Lit::TRUE || t == e {
            return t;
        }
        if s == Lit::FALSE {
            return e;
        }
        if t == Lit::TRUE {
            return self.or(s, e);
        }
        if t == Lit::FALSE {
            return self.and(!s, e);
        }
        if e == Lit::TRUE {
            return self.or(!s, t);
        }
        if e == Lit::FALSE {
            return self.and(s, t);
        }
        let o = self.fresh();
        self.sat.add_clause(&[!s, !t, o]);
        self.sat.add_clause(&[!s, t, !o]);
        self.sat.add_clause(&[s, !e, o]);
        self.sat.add_clause(&[s, e, !o]);
        self.sat.add_clause(&[!t, !e, o]);
        self.sat.add_clause(&[t, e, !o]);
        o
    }

    /// The conjunction of many literals.
    pub(crate) fn and_many(&mut self, lits: &[Lit]) -> Lit {
        let mut items: Vec<Lit> = Vec::with_capacity(lits.len());
        for &l in lits {
            if l == Lit::FALSE {
                return Lit::FALSE;
            }
            if l != Lit::TRUE && !items.contains(&l) {
                if items.contains(&!l) {
                    return Lit::FALSE;
                }
                items.push(l);
            }
        }
        match items.len() {
            0 => Lit::TRUE,
            1 => items[0],
            2 => self.and(items[0], items[1]),
            _ => {
                let o = self.fresh();
                let mut big = vec![o];
                for &l in &items {
                    self.sat.add_clause(&[!o, l]);
                    big.push(!l);
                }
                self.sat.add_clause(&big);
                o
            }
        }
    }

    pub(crate) fn or_many(&mut self, lits: &[Lit]) -> Lit {
        let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        !self.and_many(&negated)
    }

    // ---- bit vectors ----

    pub(crate) fn constant(value: u128, width: u32) -> Bits {
        (0..width).map(|i| Lit::from_bool(i < 128 && (value >> i) & 1 == 1)).collect()
    }

    /// The constant value of `bits`, if all bits are constant.
    pub(crate) fn constant_value(bits: &[Lit]) -> Option<u128> {
        let mut v = 0u128;
        for (i, &b) in bits.iter().enumerate() {
            if !b.is_constant() {
                return None;
            }
            if b == Lit::TRUE && i < 128 {
                v |= 1 << i;
            }
        }
        Some(v)
    }

    pub(crate) fn eq(&mut self, a: &[Lit], b: &[Lit]) -> Lit {
        let xs: Vec<Lit> = a.iter().zip(b.iter()).map(|(&x, &y)| self.iff(x, y)).collect();
        self.and_many(&xs)
    }

    /// The majority of three literals (the carry of a full adder).
    pub(crate) fn majority(&mut self, a: Lit, b: Lit, c: Lit) -> Lit {
        if a.is_constant() || b.is_constant() || c.is_constant() || a == b || b == c || a == c || a == !b || b == !c || a == !c {
            let ab = self.and(a, b);
            let bc = self.and(b, c);
            let ac = self.and(a, c);
            let t = self.or(ab, bc);
            return self.or(t, ac);
        }
        let o = self.fresh();
        self.sat.add_clause(&[!a, !b, o]);
        self.sat.add_clause(&[!a, !c, o]);
        self.sat.add_clause(&[!b, !c, o]);
        self.sat.add_clause(&[a, b, !o]);
        self.sat.add_clause(&[a, c, !o]);
        self.sat.add_clause(&[b, c, !o]);
        o
    }

    /// Sum and carry out of `a + b + carry_in`.
    pub(crate) fn add_with_carry(&mut self, a: &[Lit], b: &[Lit], carry_in: Lit) -> (Bits, Lit) {
        let mut carry = carry_in;
        let mut sum = Vec::with_capacity(a.len());
        for (&x, &y) in a.iter().zip(b.iter()) {
            let t = self.xor(x, y);
            sum.push(self.xor(t, carry));
            carry = self.majority(x, y, carry);
        }
        (sum, carry)
    }

    /// Only the carry out of `a + b + carry_in`.
    pub(crate) fn carry_out(&mut self, a: &[Lit], b: &[Lit], carry_in: Lit) -> Lit {
        let mut carry = carry_in;
        for (&x, &y) in a.iter().zip(b.iter()) {
            carry = self.majority(x, y, carry);
        }
        carry
    }

    pub(crate) fn add(&mut self, a: &[Lit], b: &[Lit]) -> Bits {
        self.add_with_carry(a, b, Lit::FALSE).0
    }

    pub(crate) fn sub(&mut self, a: &[Lit], b: &[Lit]) -> Bits {
        let nb: Bits = b.iter().map(|&l| !l).collect();
        self.add_with_carry(a, &nb, Lit::TRUE).0
    }

    pub(crate) fn neg(&mut self, a: &[Lit]) -> Bits {
        let zero = Self::constant(0, a.len() as u32);
        self.sub(&zero, a)
    }

    /// `a <u b`.
    pub(crate) fn ult(&mut self, a: &[Lit], b: &[Lit]) -> Lit {
        let nb: Bits = b.iter().map(|&l| !l).collect();
        !self.carry_out(a, &nb, Lit::TRUE)
    }

    /// `a < b`, signed or unsigned.
    pub(crate) fn lt(&mut self, signed: bool, a: &[Lit], b: &[Lit]) -> Lit {
        if signed {
            self.slt(a, b)
        } else {
            self.ult(a, b)
        }
    }

    /// `a <s b`.
    pub(crate) fn slt(&mut self, a: &[Lit], b: &[Lit]) -> Lit {
        let n = a.len();
        if n == 0 {
            return Lit::FALSE;
        }
        let mut a2 = a.to_vec();
        let mut b2 = b.to_vec();
        a2[n - 1] = !a2[n - 1];
        b2[n - 1] = !b2[n - 1];
        self.ult(&a2, &b2)
    }

    /// The product modulo `2^w`. Operands that are sign extensions of narrower vectors (integer
    /// promotions of `char` and `short`) multiply at the width their product needs.
    pub(crate) fn mul(&mut self, a: &[Lit], b: &[Lit]) -> Bits {
        let w = a.len();
        let narrow = signed_width(a) + signed_width(b);
        if narrow < w {
            // |a'·b'| <= 2^(ka+kb-2): exact as a signed (ka+kb)-bit vector
            let product = self.mul(&a[..narrow], &b[..narrow]);
            return sign_extend(product, w);
        }
        let mut acc = Self::constant(0, w as u32);
        for i in 0..w {
            if b[i] == Lit::FALSE {
                continue;
            }
            let mut partial = vec![Lit::FALSE; w];
            for j in 0..w - i {
                partial[i + j] = self.and(a[j], b[i]);
            }
            // only bits i.. change
            let (high, _) = self.add_with_carry(&acc[i..], &partial[i..], Lit::FALSE);
            acc.truncate(i);
            acc.extend(high);
        }
        acc
    }

    /// Unsigned quotient and remainder (restoring division); division by zero gives
    /// quotient all ones and remainder `a` (SMT-LIB).
    /// Operands with constant-zero high bits (promoted `unsigned char`s) divide at their width.
    pub(crate) fn udiv_rem(&mut self, a: &[Lit], b: &[Lit]) -> (Bits, Bits) {
        let w = a.len();
        let narrow = unsigned_width(a).max(unsigned_width(b)).max(1);
        if narrow < w {
            let (mut quotient, mut rem) = self.udiv_rem(&a[..narrow], &b[..narrow]);
            // the quotient's high bits are ones exactly when dividing by zero
            let divisor_nonzero = self.or_many(&b[..narrow]);
            quotient.resize(w, !divisor_nonzero);
            rem.resize(w, Lit::FALSE);
            return (quotient, rem);
        }
        let mut rem: Bits = vec![Lit::FALSE; w + 1];
        let mut b_ext: Bits = b.to_vec();
        b_ext.push(Lit::FALSE);
        let mut quotient = vec![Lit::FALSE; w];
        for i in (0..w).rev() {
            // rem = (rem << 1) | a_i
            let mut shifted = vec![a[i]];
            shifted.extend_from_slice(&rem[..w]);
            let ge = !self.ult(&shifted, &b_ext);
            let diff = self.sub(&shifted, &b_ext);
            rem = shifted.iter().zip(diff.iter()).map(|(&s, &d)| self.mux(ge, d, s)).collect();
            quotient[i] = ge;
        }
        rem.truncate(w);
        (quotient, rem)
    }

    /// Unsigned quotient and remainder by a constant `c > 0`: fresh `q` and `r` defined by
    /// `a == q·c + r` (at a width where it cannot wrap) and `r < c`. They exist and are unique
    /// for every `a`, so the definition holds in any context. Far smaller than the divider:
    /// multiplying by a constant adds one shifted copy of `q` per one bit of `c`.
    pub(crate) fn udiv_rem_by_constant(&mut self, a: &[Lit], c: u128) -> (Bits, Bits) {
        let w = a.len();
        let wide = w + (128 - c.leading_zeros() as usize);
        let q = self.fresh_bits(w as u32);
        let r = self.fresh_bits(w as u32);
        let zero_extend = |v: &[Lit]| -> Bits {
            let mut v = v.to_vec();
            v.resize(wide, Lit::FALSE);
            v
        };
        let product = self.mul(&zero_extend(&q), &Self::constant(c, wide as u32));
        let sum = self.add(&product, &zero_extend(&r));
        let exact = self.eq(&sum, &zero_extend(a));
        self.clause(&[exact]);
        let below = self.ult(&r, &Self::constant(c, w as u32));
        self.clause(&[below]);
        (q, r)
    }

    /// Signed quotient and remainder (C: truncation toward zero) by a constant `c` with
    /// `0 < c < 2^(w-1)`: fresh `q` and `r` with `a == q·c + r` exactly, `|r| < c`, and `r`
    /// of the sign of `a` (or zero), as for [`Circuit::udiv_rem_by_constant`].
    pub(crate) fn sdiv_rem_by_constant(&mut self, a: &[Lit], c: u128) -> (Bits, Bits) {
        let w = a.len();
        let wide = w + (128 - c.leading_zeros() as usize) + 1;
        let q = self.fresh_bits(w as u32);
        let r = self.fresh_bits(w as u32);
        let product = self.mul(&sign_extend(q.clone(), wide), &Self::constant(c, wide as u32));
        let sum = self.add(&product, &sign_extend(r.clone(), wide));
        let exact = self.eq(&sum, &sign_extend(a.to_vec(), wide));
        self.clause(&[exact]);
        let negative = a[w - 1];
        // a >= 0: 0 <= r < c
        let below = self.ult(&r, &Self::constant(c, w as u32));
        self.clause(&[negative, !r[w - 1]]);
        self.clause(&[negative, below]);
        // a < 0: -c < r <= 0
        let minus_c = Self::constant(c.wrapping_neg(), w as u32);
        let above = self.slt(&minus_c, &r);
        let positive_r = self.slt(&Self::constant(0, w as u32), &r);
        self.clause(&[!negative, above]);
        self.clause(&[!negative, !positive_r]);
        (q, r)
    }

    /// Signed quotient and remainder with SMT-LIB `bvsdiv`/`bvsrem` semantics.
    /// Sign-extended operands divide at one bit more than their width (`-2^(k-1) / -1`).
    pub(crate) fn sdiv_rem(&mut self, a: &[Lit], b: &[Lit]) -> (Bits, Bits) {
        let w = a.len();
        let narrow = signed_width(a).max(signed_width(b)) + 1;
        if narrow < w {
            let (quotient, rem) = self.sdiv_rem(&a[..narrow], &b[..narrow]);
            return (sign_extend(quotient, w), sign_extend(rem, w));
        }
        let sa = a[w - 1];
        let sb = b[w - 1];
        let na = self.neg(a);
        let nb = self.neg(b);
        let abs_a = self.mux_bits(sa, &na, a);
        let abs_b = self.mux_bits(sb, &nb, b);
        let (q, r) = self.udiv_rem(&abs_a, &abs_b);
        let nq = self.neg(&q);
        let nr = self.neg(&r);
        let signs_differ = self.xor(sa, sb);
        let quotient = self.mux_bits(signs_differ, &nq, &q);
        let remainder = self.mux_bits(sa, &nr, &r);
        (quotient, remainder)
    }

    pub(crate) fn mux_bits(&mut self, s: Lit, t: &[Lit], e: &[Lit]) -> Bits {
        t.iter().zip(e.iter()).map(|(&x, &y)| self.mux(s, x, y)).collect()
    }

    /// `a` shifted by the unsigned `amount` (any width); amounts `>= a.len()` give 0, or all
    /// sign bits for an arithmetic right shift.
    pub(crate) fn shift(&mut self, a: &[Lit], amount: &[Lit], left: bool, arithmetic: bool) -> Bits {
        let w = a.len();
        let fill = if arithmetic && !left { a[w - 1] } else { Lit::FALSE };
        // stages for amount bits below log2(w); any higher set bit, or amount >= w, is "large"
        let mut stages = 0usize;
        while (1usize << stages) < w {
            stages += 1;
        }
        let mut cur: Bits = a.to_vec();
        for (k, &bit) in amount.iter().enumerate().take(stages) {
            let step = 1usize << k;
            let shifted: Bits = (0..w)
                .map(|i| {
                    if left {
                        if i >= step {
                            cur[i - step]
                        } else {
                            Lit::FALSE
                        }
                    } else if i + step < w {
                        cur[i + step]
                    } else {
                        fill
                    }
                })
                .collect();
            cur = self.mux_bits(bit, &shifted, &cur);
        }
        // large: amount >= w
        let amount_width = amount.len() as u32;
        let large = if amount_width >= 127 || (w as u128) < (1u128 << amount_width) {
            let w_const = Self::constant(w as u128, amount_width);
            !self.ult(amount, &w_const)
        } else {
            Lit::FALSE
        };
        let fills = vec![fill; w];
        self.mux_bits(large, &fills, &cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::{new_backend, BackendKind};

    const NARROW: usize = 4;
    const WIDE: usize = 9;

    fn value(circuit: &Circuit, bits: &[Lit]) -> u128 {
        bits.iter().enumerate().map(|(i, &l)| (circuit.sat().model_value(l) as u128) << i).sum()
    }

    fn signed(v: u128, w: usize) -> i128 {
        if v >> (w - 1) & 1 == 1 {
            v as i128 - (1i128 << w)
        } else {
            v as i128
        }
    }

    /// SMT-LIB `bvudiv`/`bvurem`, `bvsdiv`/`bvsrem` and `bvmul` at width `w`.
    fn reference(op: &str, a: u128, b: u128, w: usize) -> (u128, u128) {
        let mask = (1u128 << w) - 1;
        let udiv = |a: u128, b: u128| if b == 0 { (mask, a) } else { (a / b, a % b) };
        match op {
            "mul" => ((a * b) & mask, 0),
            "udiv" => udiv(a, b),
            _ => {
                let (sa, sb) = (signed(a, w), signed(b, w));
                let (q, r) = udiv(sa.unsigned_abs() & mask, sb.unsigned_abs() & mask);
                let q = if (sa < 0) != (sb < 0) { q.wrapping_neg() & mask } else { q };
                let r = if sa < 0 { r.wrapping_neg() & mask } else { r };
                (q, r)
            }
        }
    }

    /// Every pair of 4-bit operands, sign- or zero-extended to 9 bits, against the reference:
    /// the extended operands take the narrowed circuits.
    #[test]
    fn extended_operands_multiply_and_divide_exactly() {
        for op in ["mul", "udiv", "sdiv"] {
            for (sign_a, sign_b) in [(false, false), (true, true), (true, false)] {
                let mut c = Circuit::new(new_backend(BackendKind::Batsat));
                let (na, nb) = (c.fresh_bits(NARROW as u32), c.fresh_bits(NARROW as u32));
                let extend = |bits: &Bits, signed: bool| {
                    let fill = if signed { bits[NARROW - 1] } else { Lit::FALSE };
                    let mut out = bits.clone();
                    out.resize(WIDE, fill);
                    out
                };
                let (a, b) = (extend(&na, sign_a), extend(&nb, sign_b));
                let (first, second) = match op {
                    "mul" => (c.mul(&a, &b), Vec::new()),
                    "udiv" => c.udiv_rem(&a, &b),
                    _ => c.sdiv_rem(&a, &b),
                };
                for x in 0..1u128 << NARROW {
                    for y in 0..1u128 << NARROW {
                        let fix = |bits: &Bits, v: u128| -> Vec<Lit> { bits.iter().enumerate().map(|(i, &l)| if v >> i & 1 == 1 { l } else { !l }).collect() };
                        let assumptions: Vec<Lit> = [fix(&na, x), fix(&nb, y)].concat();
                        assert_eq!(c.sat_mut().solve(&assumptions), Some(true));
                        let (wa, wb) = (value(&c, &a), value(&c, &b));
                        let (q, r) = reference(op, wa, wb, WIDE);
                        assert_eq!(value(&c, &first), q, "{op} {wa} {wb} (signed extension {sign_a} {sign_b})");
                        if op != "mul" {
                            assert_eq!(value(&c, &second), r, "{op} {wa} {wb} remainder");
                        }
                    }
                }
            }
        }
    }
}
