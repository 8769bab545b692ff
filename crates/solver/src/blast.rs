//! Gates and bit-vector circuits over a SAT back end (Tseitin encoding with constant
//! propagation and structural hashing); bit vectors are `Vec<Lit>`, least significant bit first.

use crate::sat::{Lit, SatBackend};
use std::collections::HashMap;

/// A circuit builder owning the SAT back end.
pub struct Circuit {
    sat: Box<dyn SatBackend>,
    and_gates: HashMap<(Lit, Lit), Lit>,
    xor_gates: HashMap<(Lit, Lit), Lit>,
}

pub type Bits = Vec<Lit>;

impl Circuit {
    pub fn new(mut sat: Box<dyn SatBackend>) -> Circuit {
        let t = sat.new_var();
        debug_assert_eq!(t, 0);
        sat.add_clause(&[Lit::TRUE]);
        Circuit { sat, and_gates: HashMap::new(), xor_gates: HashMap::new() }
    }

    pub fn sat(&self) -> &dyn SatBackend {
        &*self.sat
    }
    pub fn sat_mut(&mut self) -> &mut dyn SatBackend {
        &mut *self.sat
    }

    pub fn fresh(&mut self) -> Lit {
        Lit::positive(self.sat.new_var())
    }

    pub fn fresh_bits(&mut self, width: u32) -> Bits {
        (0..width).map(|_| self.fresh()).collect()
    }

    pub fn clause(&mut self, lits: &[Lit]) {
        if lits.contains(&Lit::TRUE) {
            return;
        }
        let filtered: Vec<Lit> = lits.iter().copied().filter(|&l| l != Lit::FALSE).collect();
        self.sat.add_clause(&filtered);
    }

    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
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

    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    pub fn implies(&mut self, a: Lit, b: Lit) -> Lit {
        self.or(!a, b)
    }

    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
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

    pub fn iff(&mut self, a: Lit, b: Lit) -> Lit {
        !self.xor(a, b)
    }

    /// `s ? t : e`.
    pub fn mux(&mut self, s: Lit, t: Lit, e: Lit) -> Lit {
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
    pub fn and_many(&mut self, lits: &[Lit]) -> Lit {
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

    pub fn or_many(&mut self, lits: &[Lit]) -> Lit {
        let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        !self.and_many(&negated)
    }

    // ---- bit vectors ----

    pub fn constant(value: u128, width: u32) -> Bits {
        (0..width).map(|i| Lit::from_bool(i < 128 && (value >> i) & 1 == 1)).collect()
    }

    /// The constant value of `bits`, if all bits are constant.
    pub fn constant_value(bits: &[Lit]) -> Option<u128> {
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

    pub fn eq(&mut self, a: &[Lit], b: &[Lit]) -> Lit {
        let xs: Vec<Lit> = a.iter().zip(b.iter()).map(|(&x, &y)| self.iff(x, y)).collect();
        self.and_many(&xs)
    }

    /// The majority of three literals (the carry of a full adder).
    pub fn majority(&mut self, a: Lit, b: Lit, c: Lit) -> Lit {
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
    pub fn add_with_carry(&mut self, a: &[Lit], b: &[Lit], carry_in: Lit) -> (Bits, Lit) {
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
    pub fn carry_out(&mut self, a: &[Lit], b: &[Lit], carry_in: Lit) -> Lit {
        let mut carry = carry_in;
        for (&x, &y) in a.iter().zip(b.iter()) {
            carry = self.majority(x, y, carry);
        }
        carry
    }

    pub fn add(&mut self, a: &[Lit], b: &[Lit]) -> Bits {
        self.add_with_carry(a, b, Lit::FALSE).0
    }

    pub fn sub(&mut self, a: &[Lit], b: &[Lit]) -> Bits {
        let nb: Bits = b.iter().map(|&l| !l).collect();
        self.add_with_carry(a, &nb, Lit::TRUE).0
    }

    pub fn neg(&mut self, a: &[Lit]) -> Bits {
        let zero = Self::constant(0, a.len() as u32);
        self.sub(&zero, a)
    }

    /// `a <u b`.
    pub fn ult(&mut self, a: &[Lit], b: &[Lit]) -> Lit {
        let nb: Bits = b.iter().map(|&l| !l).collect();
        !self.carry_out(a, &nb, Lit::TRUE)
    }

    /// `a < b`, signed or unsigned.
    pub fn lt(&mut self, signed: bool, a: &[Lit], b: &[Lit]) -> Lit {
        if signed {
            self.slt(a, b)
        } else {
            self.ult(a, b)
        }
    }

    /// `a <s b`.
    pub fn slt(&mut self, a: &[Lit], b: &[Lit]) -> Lit {
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

    pub fn mul(&mut self, a: &[Lit], b: &[Lit]) -> Bits {
        let w = a.len();
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
    pub fn udiv_rem(&mut self, a: &[Lit], b: &[Lit]) -> (Bits, Bits) {
        let w = a.len();
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

    /// Signed quotient and remainder with SMT-LIB `bvsdiv`/`bvsrem` semantics.
    pub fn sdiv_rem(&mut self, a: &[Lit], b: &[Lit]) -> (Bits, Bits) {
        let w = a.len();
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

    pub fn mux_bits(&mut self, s: Lit, t: &[Lit], e: &[Lit]) -> Bits {
        t.iter().zip(e.iter()).map(|(&x, &y)| self.mux(s, x, y)).collect()
    }

    /// `a` shifted by the unsigned `amount` (any width); amounts `>= a.len()` give 0, or all
    /// sign bits for an arithmetic right shift.
    pub fn shift(&mut self, a: &[Lit], amount: &[Lit], left: bool, arithmetic: bool) -> Bits {
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
