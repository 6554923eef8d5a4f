//! The batch pool: a function over many inputs on every core (`kifview convert`, `check`,
//! `diagram`), results in input order. Plain scoped threads taking the next input from a
//! shared counter, so a slow file does not hold up a whole share of the others.

/// Runs `f` over `items` on every core; results come back in input order.
pub fn map_in_order<I: Sync, T: Send>(items: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(items.len())
        .max(1);
    if threads == 1 {
        return items.iter().map(&f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<T>> = (0..items.len()).map(|_| None).collect();
    let parts: Vec<Vec<(usize, T)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= items.len() {
                            break;
                        }
                        mine.push((i, f(&items[i])));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker panicked"))
            .collect()
    });
    for (i, t) in parts.into_iter().flatten() {
        slots[i] = Some(t);
    }
    slots
        .into_iter()
        .map(|t| t.expect("every job ran"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_keeps_input_order() {
        let items: Vec<usize> = (0..100).collect();
        assert_eq!(
            map_in_order(&items, |i| i * 2),
            (0..100).map(|i| i * 2).collect::<Vec<_>>()
        );
        assert!(map_in_order(&[] as &[usize], |i| *i).is_empty());
    }
}
