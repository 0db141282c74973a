package io.github.ratelimit.reputation;

import java.util.ArrayList;
import java.util.List;

import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.identity.CidrRange;

/**
 * An immutable set of address ranges, IPv4 and IPv6 in one 128-bit space, held as sorted,
 * merged intervals in flat arrays: a lookup is one binary search, with no allocation.
 */
public final class AddressRanges {

	/** No range. */
	public static final AddressRanges EMPTY = new AddressRanges(new long[0], new long[0], new long[0], new long[0]);

	private final long[] firstHigh;

	private final long[] firstLow;

	private final long[] lastHigh;

	private final long[] lastLow;

	private AddressRanges(long[] firstHigh, long[] firstLow, long[] lastHigh, long[] lastLow) {
		this.firstHigh = firstHigh;
		this.firstLow = firstLow;
		this.lastHigh = lastHigh;
		this.lastLow = lastLow;
	}

	/**
	 * Builds the set of some ranges; overlapping and adjacent ranges are merged.
	 * @param ranges the ranges, in any order
	 * @return the set
	 */
	public static AddressRanges of(List<CidrRange> ranges) {
		if (ranges.isEmpty()) {
			return EMPTY;
		}
		List<CidrRange> sorted = new ArrayList<>(ranges);
		sorted.sort((a, b) -> AddressBits.compare(a.firstHigh(), a.firstLow(), b.firstHigh(), b.firstLow()));
		int n = sorted.size();
		long[] firstHigh = new long[n];
		long[] firstLow = new long[n];
		long[] lastHigh = new long[n];
		long[] lastLow = new long[n];
		int size = 0;
		for (CidrRange range : sorted) {
			if (size > 0 && touches(lastHigh[size - 1], lastLow[size - 1], range.firstHigh(), range.firstLow())) {
				// overlaps or follows the previous interval: widen it
				if (AddressBits.compare(range.lastHigh(), range.lastLow(), lastHigh[size - 1], lastLow[size - 1]) > 0) {
					lastHigh[size - 1] = range.lastHigh();
					lastLow[size - 1] = range.lastLow();
				}
				continue;
			}
			firstHigh[size] = range.firstHigh();
			firstLow[size] = range.firstLow();
			lastHigh[size] = range.lastHigh();
			lastLow[size] = range.lastLow();
			size++;
		}
		return new AddressRanges(trim(firstHigh, size), trim(firstLow, size), trim(lastHigh, size),
				trim(lastLow, size));
	}

	/** Whether an address lies in one of the ranges. */
	public boolean contains(AddressBits address) {
		return contains(address.high(), address.low());
	}

	/** Whether an address, as 128 bits, lies in one of the ranges. */
	public boolean contains(long high, long low) {
		// the last interval that starts at or before the address
		int lo = 0;
		int hi = this.firstHigh.length - 1;
		int found = -1;
		while (lo <= hi) {
			int mid = (lo + hi) >>> 1;
			if (AddressBits.compare(this.firstHigh[mid], this.firstLow[mid], high, low) <= 0) {
				found = mid;
				lo = mid + 1;
			}
			else {
				hi = mid - 1;
			}
		}
		return found >= 0 && AddressBits.compare(high, low, this.lastHigh[found], this.lastLow[found]) <= 0;
	}

	/** How many intervals the set holds once merged. */
	public int intervals() {
		return this.firstHigh.length;
	}

	/** Whether the set holds no address. */
	public boolean isEmpty() {
		return this.firstHigh.length == 0;
	}

	// whether an interval starting at (high, low) overlaps or directly follows one that
	// ends at (endHigh, endLow)
	private static boolean touches(long endHigh, long endLow, long high, long low) {
		if (AddressBits.compare(high, low, endHigh, endLow) <= 0) {
			return true;
		}
		long nextLow = endLow + 1;
		long nextHigh = (nextLow == 0) ? endHigh + 1 : endHigh;
		return nextHigh == high && nextLow == low;
	}

	private static long[] trim(long[] values, int size) {
		if (values.length == size) {
			return values;
		}
		long[] trimmed = new long[size];
		System.arraycopy(values, 0, trimmed, 0, size);
		return trimmed;
	}

}
