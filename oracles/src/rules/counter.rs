//! The hidden counter of an append/consume UAV (FS §5.3.10 "Hidden Counter"): `imm_atomic_alloc`
//! returns the count and then adds one; `imm_atomic_consume` subtracts one and returns the
//! result. Both wrap. Which invocation gets which count is the device's order, which D3D leaves
//! open: the interpreter's serial order is one of them (`interp::memory`, `counter_order`).

/// One counter operation on `counter`: the value the instruction returns.
pub fn step(counter: &mut u32, alloc: bool) -> u32 {
    if alloc {
        let was = *counter;
        *counter = counter.wrapping_add(1);
        was
    } else {
        *counter = counter.wrapping_sub(1);
        *counter
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_returns_then_adds_and_consume_subtracts_then_returns() {
        let mut c = 5;
        assert_eq!(step(&mut c, true), 5);
        assert_eq!(step(&mut c, true), 6);
        assert_eq!(step(&mut c, false), 6);
        assert_eq!(c, 6);
        let mut z = 0;
        assert_eq!(step(&mut z, false), u32::MAX, "consume below 0 wraps");
    }
}
