//! Fixed-capacity storage for the tree's arenas that threads can write new entries into through
//! a shared reference, each into a slot it alone has claimed.
//!
//! A `Vec` can only be appended to through `&mut`, so with it every node a threaded search
//! creates would need the exclusive lock. [`Slots`] is the buffer without the length: the tree
//! keeps the lengths (one atomic word for nodes and edges, see `tree.rs`), hands each creating
//! thread distinct slot indices, and promises the rules the unsafe accessors below state. The
//! address space is reserved once and pages become resident only when first written, as with
//! `Vec::with_capacity`.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;

/// `capacity` slots of `T`, each initialised or not; which ones are is the owner's to know.
pub struct Slots<T> {
    buf: Box<[UnsafeCell<MaybeUninit<T>>]>,
}

// Thread safety: a slot is written through `&self` only by the one thread that claimed it (see
// `write`), and read only after that write was published to the reader with release/acquire
// ordering. Everything else takes `&mut self`.
unsafe impl<T: Send> Send for Slots<T> {}
unsafe impl<T: Send + Sync> Sync for Slots<T> {}

impl<T> Slots<T> {
    /// No slots.
    pub fn new() -> Slots<T> {
        Slots { buf: Box::new([]) }
    }

    /// `capacity` slots, none initialised; `None` if the system refuses the address space.
    pub fn with_capacity(capacity: usize) -> Option<Slots<T>> {
        // Entries are dropped by forgetting them (truncation is a change of length): only types
        // without drop glue may live here.
        const { assert!(!std::mem::needs_drop::<T>()) };
        let mut v: Vec<UnsafeCell<MaybeUninit<T>>> = Vec::new();
        v.try_reserve_exact(capacity).ok()?;
        // SAFETY: `MaybeUninit` needs no initialisation, and the capacity is reserved. The
        // length equals the capacity, so `into_boxed_slice` does not reallocate (nor touch the
        // pages).
        unsafe { v.set_len(v.capacity()) };
        Some(Slots {
            buf: v.into_boxed_slice(),
        })
    }

    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Grows to at least `capacity` slots, moving the first `len` (initialised) entries;
    /// false (nothing changed) if the system refuses.
    pub fn grow(&mut self, len: usize, capacity: usize) -> bool {
        if capacity <= self.capacity() {
            return true;
        }
        let Some(mut bigger) = Slots::with_capacity(capacity) else {
            return false;
        };
        let len = len.min(self.capacity());
        // SAFETY: both buffers hold at least `len` slots and do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(self.buf.as_ptr(), bigger.buf.as_mut_ptr(), len);
        }
        *self = bigger;
        true
    }

    /// Slot `i`.
    ///
    /// # Safety
    /// Slot `i` is initialised, and its initialisation happens-before this call.
    #[inline]
    pub unsafe fn get(&self, i: usize) -> &T {
        (*self.buf[i].get()).assume_init_ref()
    }

    /// Slots `range`.
    ///
    /// # Safety
    /// As [`Slots::get`], for every slot of `range`.
    #[inline]
    pub unsafe fn range(&self, range: std::ops::Range<usize>) -> &[T] {
        let slots = &self.buf[range];
        std::slice::from_raw_parts(slots.as_ptr() as *const T, slots.len())
    }

    /// Slots `range`, to change.
    ///
    /// # Safety
    /// Every slot of `range` is initialised.
    #[inline]
    pub unsafe fn range_mut(&mut self, range: std::ops::Range<usize>) -> &mut [T] {
        let slots = &mut self.buf[range];
        std::slice::from_raw_parts_mut(slots.as_mut_ptr() as *mut T, slots.len())
    }

    /// Writes `value` into slot `i` through a shared reference.
    ///
    /// # Safety
    /// No other thread reads or writes slot `i` until this write is published to it (the slot
    /// was claimed by this thread alone, and no reference to it exists).
    #[inline]
    pub unsafe fn write(&self, i: usize, value: T) {
        (*self.buf[i].get()).write(value);
    }

    /// Writes `value` into slot `i` (safe: no reference to a slot can outlive `&mut self`).
    #[inline]
    pub fn put(&mut self, i: usize, value: T) {
        self.buf[i].get_mut().write(value);
    }
}

impl<T> Default for Slots<T> {
    fn default() -> Slots<T> {
        Slots::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_keep_their_entries_through_growth() {
        let mut s: Slots<u32> = Slots::with_capacity(4).expect("4 slots");
        assert_eq!(s.capacity(), 4);
        for i in 0..4 {
            s.put(i, i as u32 * 10);
        }
        assert!(s.grow(4, 9));
        assert!(s.capacity() >= 9);
        let shared = &s;
        // SAFETY: slot 7 is written by this thread only, before it is read.
        unsafe { shared.write(7, 70) };
        // SAFETY: slots 0..4 and 7 were written above.
        unsafe {
            assert_eq!(s.range(0..4), &[0, 10, 20, 30]);
            assert_eq!(*s.get(7), 70);
            s.range_mut(1..2)[0] = 11;
            assert_eq!(*s.get(1), 11);
        }
        assert_eq!(Slots::<u8>::new().capacity(), 0);
    }
}
