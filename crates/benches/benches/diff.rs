//! `diff` on turn orders up to 100 times the size of the bundled rules'.
//!
//! `cargo bench -p carcassonne-rules-benches --bench diff -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "../../../tests/fixtures/repeated.rs"]
mod repeated;

use carcassonne_rules_runtime::render::text_with_ids;

fn diff(c: &mut Criterion) {
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    let (everything, base) = (repeated::bundled("C2", true), repeated::bundled("C2", false));
    for times in [1, 10, 100] {
        let a = text_with_ids(&repeated::repeated(&base, times));
        let b = text_with_ids(&repeated::repeated(&everything, times));
        group.bench_function(format!("C2 base against everything, {times}×"), |bench| {
            bench.iter(|| carcassonne_rules::diff::unified(&a, &b, false))
        });
    }
    let we = repeated::bundled("WE", true);
    let (a, b) = (text_with_ids(&repeated::repeated(&everything, 100)), text_with_ids(&repeated::repeated(&we, 100)));
    group.bench_function("everything, C2 against WE, 100×", |bench| {
        bench.iter(|| carcassonne_rules::diff::unified(&a, &b, false))
    });
    group.finish();
}

criterion_group!(benches, diff);
criterion_main!(benches);
