struct Point {
    x: f64,
}

/// Distance from the origin.
#[codemode::tool]
fn norm(p: Point) -> f64 {
    p.x.abs()
}

fn main() {}
