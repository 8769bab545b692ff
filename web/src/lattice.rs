//! Layout of the cube-lattice view (pure, unit-tested natively): the cubes the `F`/`G`
//! strengthening visited, as a Hasse diagram by cube length (level 1 on top, an edge from a cube
//! to each visited cube one literal longer that contains it), or, for large lattices, one row per
//! level with the number of cubes per outcome, so the view stays cheap to render.

use playground_api::explain::{CubeData, LatticeData};

/// Above this many visited cubes the view collapses to per-level rows.
pub const MAX_DIAGRAM_NODES: usize = 150;
/// Vertical distance of two levels in the diagram (SVG user units = CSS pixels).
pub const LEVEL_HEIGHT: f64 = 58.0;
/// Vertical distance of two rows of one wrapped level.
pub const ROW_HEIGHT: f64 = 36.0;
pub const NODE_HEIGHT: f64 = 26.0;
const CHAR_WIDTH: f64 = 7.3;
const NODE_GAP: f64 = 10.0;
/// Left margin leaves room for the level numbers.
pub const MARGIN: f64 = 22.0;
/// A level wider than this wraps onto several rows.
const MAX_ROW_WIDTH: f64 = 1100.0;

/// What the strengthening concluded about a cube (C2BP §4.1), as the view colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Implies,
    ImpliesNegation,
    Neither,
    Pruned,
    OutsideCone,
    BeyondMaxLength,
}

impl Outcome {
    pub const ALL: [Outcome; 6] = [
        Outcome::Implies,
        Outcome::ImpliesNegation,
        Outcome::Neither,
        Outcome::Pruned,
        Outcome::OutsideCone,
        Outcome::BeyondMaxLength,
    ];

    /// The engine's name (`CubeData::outcome`); unknown names count as "neither".
    pub fn parse(name: &str) -> Outcome {
        match name {
            "implies" => Outcome::Implies,
            "implies_negation" => Outcome::ImpliesNegation,
            "pruned" => Outcome::Pruned,
            "outside_cone" => Outcome::OutsideCone,
            "beyond_max_length" => Outcome::BeyondMaxLength,
            _ => Outcome::Neither,
        }
    }
    /// The engine's name, also the CSS class suffix (`outcome-implies`).
    pub fn key(self) -> &'static str {
        match self {
            Outcome::Implies => "implies",
            Outcome::ImpliesNegation => "implies_negation",
            Outcome::Neither => "neither",
            Outcome::Pruned => "pruned",
            Outcome::OutsideCone => "outside_cone",
            Outcome::BeyondMaxLength => "beyond_max_length",
        }
    }
    pub fn legend(self) -> &'static str {
        match self {
            Outcome::Implies => "implies φ",
            Outcome::ImpliesNegation => "implies ¬φ",
            Outcome::Neither => "neither",
            Outcome::Pruned => "pruned (superset of an implicant)",
            Outcome::OutsideCone => "outside the cone",
            Outcome::BeyondMaxLength => "beyond the max cube length",
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// A cube as text: `{a} ∧ !{b}` (the boolean program's names).
pub fn cube_label(literals: &[(String, bool)]) -> String {
    if literals.is_empty() {
        return "true".to_string();
    }
    literals.iter().map(|(name, positive)| if *positive { name.clone() } else { format!("!{name}") }).collect::<Vec<_>>().join(" ∧ ")
}

/// Short names of the predicates for node labels: `a`, `b`, … in cone order (then any other
/// name a cube mentions), so that nodes stay narrow; the view prints the key.
pub fn keys(data: &LatticeData) -> Vec<(String, String)> {
    let mut names: Vec<&str> = data.cone.iter().map(String::as_str).collect();
    for cube in &data.cubes {
        for (name, _) in &cube.literals {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let key = if i < 26 { char::from(b'a' + i as u8).to_string() } else { format!("p{}", i + 1) };
            (key, name.to_string())
        })
        .collect()
}

/// A cube with key names: `a ∧ ¬b` (`⊤` for the empty cube).
pub fn short_label(literals: &[(String, bool)], keys: &[(String, String)]) -> String {
    if literals.is_empty() {
        return "⊤".to_string();
    }
    literals
        .iter()
        .map(|(name, positive)| {
            let key = keys.iter().find(|(_, n)| n == name).map_or(name.as_str(), |(k, _)| k.as_str());
            if *positive {
                key.to_string()
            } else {
                format!("¬{key}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ∧ ")
}

/// One cube placed in the diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Index into `LatticeData::cubes`.
    pub cube: usize,
    /// Cube length (the empty cube `true` is level 0).
    pub level: usize,
    /// Top-left corner and width.
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub label: String,
    pub full_label: String,
    pub outcome: Outcome,
    /// BFS position (animation).
    pub order: u32,
}

/// Cubes of one length, counted per outcome (collapsed view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelRow {
    pub length: usize,
    /// Indexed like [`Outcome::ALL`].
    pub counts: [usize; 6],
    /// Cubes that imply φ or ¬φ (the interesting few), indices into `cubes`.
    pub implicants: Vec<usize>,
    /// The largest BFS position on this level (animation).
    pub last_order: u32,
}

impl LevelRow {
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }
    pub fn count(&self, outcome: Outcome) -> usize {
        self.counts[outcome.index()]
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    /// Nothing was visited (e.g. the exact strategy, or no query was needed).
    Empty,
    Diagram {
        nodes: Vec<Node>,
        edges: Vec<(usize, usize)>,
        width: f64,
        height: f64,
        /// Short name ↔ predicate, for the node labels.
        keys: Vec<(String, String)>,
        /// Top of each level (index = cube length), for the level numbers.
        level_tops: Vec<f64>,
    },
    Rows(Vec<LevelRow>),
}

/// Counts of visited cubes per outcome (legend), indexed like [`Outcome::ALL`].
pub fn outcome_counts(data: &LatticeData) -> [usize; 6] {
    let mut counts = [0; 6];
    for cube in &data.cubes {
        counts[Outcome::parse(&cube.outcome).index()] += 1;
    }
    counts[Outcome::OutsideCone.index()] += data.outside_cone.len();
    counts
}

fn is_subcube(small: &CubeData, big: &CubeData) -> bool {
    small.literals.len() + 1 == big.literals.len() && small.literals.iter().all(|l| big.literals.contains(l))
}

/// Lays out the lattice: a diagram up to [`MAX_DIAGRAM_NODES`] cubes, per-level rows above.
pub fn layout(data: &LatticeData) -> Layout {
    if data.cubes.is_empty() {
        return Layout::Empty;
    }
    let max_len = data.cubes.iter().map(|c| c.literals.len()).max().unwrap_or(0);
    if data.cubes.len() > MAX_DIAGRAM_NODES {
        let mut rows: Vec<LevelRow> =
            (0..=max_len).map(|length| LevelRow { length, counts: [0; 6], implicants: Vec::new(), last_order: 0 }).collect();
        for (i, cube) in data.cubes.iter().enumerate() {
            let Some(row) = rows.get_mut(cube.literals.len()) else { continue };
            let outcome = Outcome::parse(&cube.outcome);
            row.counts[outcome.index()] += 1;
            row.last_order = row.last_order.max(cube.order);
            if matches!(outcome, Outcome::Implies | Outcome::ImpliesNegation) {
                row.implicants.push(i);
            }
        }
        rows.retain(|r| r.total() > 0);
        return Layout::Rows(rows);
    }
    // levels (by cube length, BFS order within a level), each wrapped into rows
    let keys = keys(data);
    let mut levels: Vec<Vec<usize>> = vec![Vec::new(); max_len + 1];
    for (i, cube) in data.cubes.iter().enumerate() {
        levels[cube.literals.len()].push(i);
    }
    let labels: Vec<String> = data.cubes.iter().map(|c| short_label(&c.literals, &keys)).collect();
    let widths: Vec<f64> = labels.iter().map(|l| l.chars().count() as f64 * CHAR_WIDTH + 14.0).collect();
    let mut rows: Vec<(usize, Vec<usize>)> = Vec::new(); // (level, cubes)
    for (level, cubes) in levels.iter().enumerate() {
        let mut row: Vec<usize> = Vec::new();
        let mut used = 0.0;
        for &i in cubes {
            if !row.is_empty() && used + widths[i] > MAX_ROW_WIDTH {
                rows.push((level, std::mem::take(&mut row)));
                used = 0.0;
            }
            used += widths[i] + NODE_GAP;
            row.push(i);
        }
        if !row.is_empty() {
            rows.push((level, row));
        }
    }
    let row_width = |row: &Vec<usize>| -> f64 { row.iter().map(|&i| widths[i] + NODE_GAP).sum::<f64>() - NODE_GAP };
    let width = rows.iter().map(|(_, r)| row_width(r)).fold(0.0, f64::max) + MARGIN + 10.0;
    let mut nodes = Vec::with_capacity(data.cubes.len());
    let mut node_of = vec![usize::MAX; data.cubes.len()];
    let mut level_tops = vec![f64::NAN; max_len + 1];
    let mut y = 10.0 - LEVEL_HEIGHT;
    let mut previous_level = usize::MAX;
    for (level, row) in &rows {
        y += if *level == previous_level { ROW_HEIGHT } else { LEVEL_HEIGHT };
        if *level != previous_level {
            level_tops[*level] = y;
        }
        previous_level = *level;
        let mut x = MARGIN + (width - MARGIN - 10.0 - row_width(row)) / 2.0;
        for &i in row {
            let cube = &data.cubes[i];
            node_of[i] = nodes.len();
            nodes.push(Node {
                cube: i,
                level: *level,
                x,
                y,
                width: widths[i],
                label: labels[i].clone(),
                full_label: cube_label(&cube.literals),
                outcome: Outcome::parse(&cube.outcome),
                order: cube.order,
            });
            x += widths[i] + NODE_GAP;
        }
    }
    let mut edges = Vec::new();
    for pair in levels.windows(2) {
        for &a in &pair[0] {
            for &b in &pair[1] {
                if is_subcube(&data.cubes[a], &data.cubes[b]) {
                    edges.push((node_of[a], node_of[b]));
                }
            }
        }
    }
    let height = y + NODE_HEIGHT + 10.0;
    Layout::Diagram { nodes, edges, width, height, keys, level_tops }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(lits: &[(&str, bool)], outcome: &str, order: u32) -> CubeData {
        CubeData {
            literals: lits.iter().map(|(n, p)| (n.to_string(), *p)).collect(),
            outcome: outcome.into(),
            query: String::new(),
            answer: String::new(),
            micros: 0.0,
            order,
        }
    }

    #[test]
    fn a_small_lattice_is_a_hasse_diagram_by_length() {
        let data = LatticeData {
            cubes: vec![
                cube(&[("{a}", true)], "implies", 0),
                cube(&[("{a}", false)], "neither", 1),
                cube(&[("{b}", true)], "neither", 2),
                cube(&[("{a}", false), ("{b}", true)], "implies_negation", 3),
                cube(&[("{a}", true), ("{b}", true)], "pruned", 4),
            ],
            outside_cone: vec!["{c}".into()],
            ..LatticeData::default()
        };
        let Layout::Diagram { nodes, edges, width, height, keys, .. } = layout(&data) else { panic!("a diagram") };
        assert_eq!(nodes.len(), 5);
        assert_eq!(nodes.iter().filter(|n| n.level == 1).count(), 3);
        assert_eq!(keys[0], ("a".to_string(), "{a}".to_string()));
        assert_eq!(nodes[3].label, "¬a ∧ b");
        assert!(nodes.iter().all(|n| n.x >= 0.0 && n.x + n.width <= width && n.y + NODE_HEIGHT <= height));
        // !{a} ∧ {b} sits under !{a} and {b}; {a} ∧ {b} under {a} and {b}
        assert_eq!(edges.len(), 4);
        assert_eq!(nodes[3].full_label, "!{a} ∧ {b}");
        assert_eq!(outcome_counts(&data)[Outcome::OutsideCone as usize], 1);
    }

    #[test]
    fn large_lattices_collapse_to_rows() {
        let mut cubes = Vec::new();
        for i in 0..400u32 {
            let len = 1 + (i % 3) as usize;
            let lits: Vec<(String, bool)> = (0..len).map(|k| (format!("{{p{}}}", (i as usize + k) % 8), k % 2 == 0)).collect();
            cubes.push(CubeData { literals: lits, outcome: if i == 7 { "implies" } else { "neither" }.into(), query: String::new(), answer: String::new(), micros: 0.0, order: i });
        }
        let Layout::Rows(rows) = layout(&LatticeData { cubes, ..LatticeData::default() }) else { panic!("rows") };
        assert_eq!(rows.len(), 3);
        assert_eq!(rows.iter().map(LevelRow::total).sum::<usize>(), 400);
        assert_eq!(rows.iter().map(|r| r.implicants.len()).sum::<usize>(), 1);
    }

    #[test]
    fn long_predicates_get_short_keys_and_wide_levels_wrap() {
        let long = "{register_chrdev_return << 8 >> 8 == register_chrdev_return}";
        let mut cubes = vec![cube(&[], "neither", 0), cube(&[(long, false)], "neither", 1)];
        for i in 0..60u32 {
            cubes.push(cube(&[(&format!("{{q{i}}}"), true), (long, true)], "neither", 2 + i));
        }
        let Layout::Diagram { nodes, width, level_tops, .. } = layout(&LatticeData { cubes, ..LatticeData::default() }) else { panic!() };
        assert_eq!(nodes[0].label, "⊤");
        assert_eq!(nodes[0].level, 0);
        assert_eq!(nodes[1].label, "¬a");
        assert!(nodes[1].full_label.starts_with("!{register"));
        assert!(width <= MAX_ROW_WIDTH + MARGIN + 10.0);
        let level2: Vec<f64> = nodes.iter().filter(|n| n.level == 2).map(|n| n.y).collect();
        assert!(level2.iter().any(|&y| y > level_tops[2]), "level 2 wraps onto a second row");
        assert_eq!(layout(&LatticeData::default()), Layout::Empty);
    }
}
