package io.github.ratelimit.identity;

/**
 * An IP address as 128 bits. IPv4 addresses are held in their IPv4-mapped form
 * ({@code ::ffff:a.b.c.d}), so an address that arrives as {@code ::ffff:203.0.113.7} is
 * the same value as {@code 203.0.113.7} and one code path serves both families.
 *
 * @param high the upper 64 bits
 * @param low the lower 64 bits
 */
record IpAddress(long high, long low) {

	/**
	 * The upper half of {@link #low} of an IPv4-mapped address: {@code ::ffff:0:0/96}.
	 */
	private static final long IPV4_MAPPED = 0xffffL << 32;

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	/**
	 * The address of a 32-bit IPv4 value (only the lower 32 bits of {@code ipv4} are
	 * used).
	 */
	static IpAddress ofIpv4(long ipv4) {
		return new IpAddress(0, IPV4_MAPPED | (ipv4 & 0xffffffffL));
	}

	/**
	 * Whether this is an IPv4 address (or, the same thing, an IPv4-mapped IPv6 address).
	 */
	boolean isIpv4() {
		return this.high == 0 && (this.low & 0xffffffff00000000L) == IPV4_MAPPED;
	}

	/** The upper 64 bits of a 128-bit mask of {@code prefix} leading ones. */
	static long maskHigh(int prefix) {
		// shifts are taken modulo 64 in Java, so the ends need their own cases
		if (prefix <= 0) {
			return 0;
		}
		return (prefix >= 64) ? -1L : -1L << (64 - prefix);
	}

	/** The lower 64 bits of a 128-bit mask of {@code prefix} leading ones. */
	static long maskLow(int prefix) {
		if (prefix <= 64) {
			return 0;
		}
		return (prefix >= 128) ? -1L : -1L << (128 - prefix);
	}

	/**
	 * Renders the group this address belongs to: the address itself when the prefix
	 * covers all of it, else the network and the prefix length ({@code 203.0.113.0/24},
	 * {@code 2001:db8:1:2::/64}). IPv6 is written in the RFC 5952 canonical form. The
	 * result only ever holds {@code [0-9a-f.:/]}.
	 * @param ipv4Prefix the prefix length for IPv4 addresses, 0 to 32
	 * @param ipv6Prefix the prefix length for IPv6 addresses, 0 to 128
	 * @return the group id
	 */
	String toGroup(int ipv4Prefix, int ipv6Prefix) {
		StringBuilder builder = new StringBuilder(isIpv4() ? 18 : 43);
		if (isIpv4()) {
			long mask = maskLow(96 + ipv4Prefix);
			appendIpv4(builder, (int) (this.low & mask));
			appendPrefix(builder, ipv4Prefix, 32);
		}
		else {
			appendIpv6(builder, this.high & maskHigh(ipv6Prefix), this.low & maskLow(ipv6Prefix));
			appendPrefix(builder, ipv6Prefix, 128);
		}
		return builder.toString();
	}

	/**
	 * The address in RFC 5952 form, IPv4-mapped addresses included
	 * ({@code ::ffff:a00:1}).
	 */
	String toIpv6String() {
		StringBuilder builder = new StringBuilder(39);
		appendIpv6(builder, this.high, this.low);
		return builder.toString();
	}

	/** The address itself: a dotted quad for IPv4, else the RFC 5952 form. */
	@Override
	public String toString() {
		return toGroup(32, 128);
	}

	private static void appendPrefix(StringBuilder builder, int prefix, int bits) {
		if (prefix < bits) {
			builder.append('/').append(prefix);
		}
	}

	private static void appendIpv4(StringBuilder builder, int ipv4) {
		builder.append((ipv4 >>> 24) & 0xff)
			.append('.')
			.append((ipv4 >>> 16) & 0xff)
			.append('.')
			.append((ipv4 >>> 8) & 0xff)
			.append('.')
			.append(ipv4 & 0xff);
	}

	// RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups
	// (the first of
	// equal runs) shortened to "::"
	private static void appendIpv6(StringBuilder builder, long high, long low) {
		int runStart = -1;
		int runLength = 0;
		int currentStart = -1;
		for (int i = 0; i < 8; i++) {
			if (group(high, low, i) == 0) {
				if (currentStart < 0) {
					currentStart = i;
				}
				int length = i - currentStart + 1;
				if (length > runLength) {
					runStart = currentStart;
					runLength = length;
				}
			}
			else {
				currentStart = -1;
			}
		}
		if (runLength < 2) {
			runStart = -1;
		}
		for (int i = 0; i < 8; i++) {
			if (i == runStart) {
				builder.append("::");
				i += runLength - 1;
				continue;
			}
			if (i > 0 && i != runStart + runLength) {
				builder.append(':');
			}
			appendHex(builder, group(high, low, i));
		}
	}

	private static int group(long high, long low, int index) {
		long half = (index < 4) ? high : low;
		return (int) (half >>> (48 - 16 * (index & 3))) & 0xffff;
	}

	private static void appendHex(StringBuilder builder, int group) {
		boolean started = false;
		for (int shift = 12; shift >= 0; shift -= 4) {
			int digit = (group >>> shift) & 0xf;
			if (digit != 0 || started || shift == 0) {
				builder.append(HEX[digit]);
				started = true;
			}
		}
	}

}
