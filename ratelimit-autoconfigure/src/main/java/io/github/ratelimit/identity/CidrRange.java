package io.github.ratelimit.identity;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A block of IP addresses in CIDR notation: {@code 10.0.0.0/8}, {@code fc00::/7}, or a
 * single address ({@code 192.0.2.1} is {@code 192.0.2.1/32}, {@code ::1} is
 * {@code ::1/128}).
 * <p>
 * IPv4 and IPv6 share one address space: an IPv4 address is the same as its IPv4-mapped
 * IPv6 form ({@code ::ffff:10.1.2.3} is in {@code 10.0.0.0/8}), so an IPv6 range that
 * covers {@code ::ffff:0:0/96} (such as {@code ::/0}) also covers every IPv4 address.
 * <p>
 * Ranges are parsed strictly, once, at startup: host bits below the prefix, zone ids,
 * brackets and legacy IPv4 forms are rejected, so a typo cannot silently widen a trusted
 * range.
 */
public final class CidrRange {

	/**
	 * The proxies trusted by default: loopback only. Trusting the private ranges too (as
	 * Tomcat's {@code RemoteIpValve} does) would let any client inside a private network
	 * name itself anew in every request; an application behind a load balancer adds the
	 * balancer's addresses (or {@link #PRIVATE_RANGES}) to
	 * {@code ratelimit.identity.trusted-proxies}.
	 */
	public static final List<String> DEFAULT_TRUSTED_PROXIES = List.of("127.0.0.0/8", "::1/128");

	/**
	 * The private ranges of IPv4 and IPv6, where load balancers and ingress proxies
	 * usually live.
	 */
	public static final List<String> PRIVATE_RANGES = List.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
			"fc00::/7");

	/** Loopback and the private ranges: what Tomcat's {@code RemoteIpValve} trusts. */
	public static final List<String> LOOPBACK_AND_PRIVATE_RANGES = List.of("127.0.0.0/8", "::1/128", "10.0.0.0/8",
			"172.16.0.0/12", "192.168.0.0/16", "fc00::/7");

	private final long networkHigh;

	private final long networkLow;

	private final long maskHigh;

	private final long maskLow;

	private final String text;

	private CidrRange(IpAddress network, int prefix, String text) {
		this.maskHigh = IpAddress.maskHigh(prefix);
		this.maskLow = IpAddress.maskLow(prefix);
		this.networkHigh = network.high();
		this.networkLow = network.low();
		this.text = text;
	}

	/**
	 * Parses a range.
	 * @param cidr an address or {@code address/prefix-length}; surrounding white space is
	 * ignored
	 * @return the range
	 * @throws IllegalArgumentException when the text is not a valid range, with the
	 * reason
	 */
	public static CidrRange parse(String cidr) {
		Parsed parsed = parseOrExplain(cidr);
		if (parsed.range == null) {
			throw new IllegalArgumentException("'" + cidr + "' is not a valid CIDR range: " + parsed.reason);
		}
		return parsed.range;
	}

	/**
	 * Checks a range without throwing, for configuration validation that reports the
	 * property itself.
	 * @param cidr the text to check
	 * @return why the text is not a valid range (for example
	 * {@code "host bits are set below the prefix; did you mean 10.0.0.0/8?"}), or
	 * {@code null} when it is
	 */
	public static @Nullable String invalidReason(String cidr) {
		return parseOrExplain(cidr).reason;
	}

	/**
	 * Whether an address lies in this range.
	 * @param address an address literal (brackets, a zone id or a port are allowed and
	 * ignored)
	 * @return whether it is an address in this range; {@code false} for anything that is
	 * not an address
	 */
	public boolean contains(String address) {
		IpAddress parsed = IpLiterals.parseNode(address, 0, address.length());
		return parsed != null && contains(parsed);
	}

	/** The first address of the range, as {@link AddressBits}: its upper 64 bits. */
	public long firstHigh() {
		return this.networkHigh;
	}

	/** The first address of the range: its lower 64 bits. */
	public long firstLow() {
		return this.networkLow;
	}

	/** The last address of the range: its upper 64 bits. */
	public long lastHigh() {
		return this.networkHigh | ~this.maskHigh;
	}

	/** The last address of the range: its lower 64 bits. */
	public long lastLow() {
		return this.networkLow | ~this.maskLow;
	}

	boolean contains(IpAddress address) {
		return (address.high() & this.maskHigh) == this.networkHigh
				&& (address.low() & this.maskLow) == this.networkLow;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof CidrRange range && this.networkHigh == range.networkHigh
				&& this.networkLow == range.networkLow && this.maskHigh == range.maskHigh
				&& this.maskLow == range.maskLow;
	}

	@Override
	public int hashCode() {
		return Long.hashCode(this.networkHigh ^ this.networkLow) * 31 + Long.hashCode(this.maskHigh ^ this.maskLow);
	}

	/**
	 * The range in canonical form, for example {@code 10.0.0.0/8} or {@code fc00::/7}.
	 */
	@Override
	public String toString() {
		return this.text;
	}

	private static Parsed parseOrExplain(String cidr) {
		String text = cidr.strip();
		if (text.isEmpty()) {
			return Parsed.invalid("a range must not be empty");
		}
		int slash = text.indexOf('/');
		int addressEnd = (slash >= 0) ? slash : text.length();
		if (text.indexOf('%') >= 0) {
			return Parsed.invalid("zone ids (%...) are not allowed in a range");
		}
		if (text.startsWith("[")) {
			return Parsed.invalid("write IPv6 ranges without brackets, for example fc00::/7");
		}
		IpAddress address = IpLiterals.parseAddress(text, 0, addressEnd);
		if (address == null) {
			return Parsed.invalid("'" + text.substring(0, addressEnd)
					+ "' is not an IPv4 address (a.b.c.d, no leading zeros) or an IPv6 address");
		}
		boolean ipv4 = text.lastIndexOf(':', addressEnd) < 0;
		int bits = ipv4 ? 32 : 128;
		int prefix = bits;
		if (slash >= 0) {
			prefix = parsePrefix(text, slash + 1);
			if (prefix < 0 || prefix > bits) {
				return Parsed.invalid("the prefix length after '/' must be a number from 0 to " + bits + " for an "
						+ (ipv4 ? "IPv4" : "IPv6") + " range");
			}
		}
		int prefix128 = ipv4 ? 96 + prefix : prefix;
		IpAddress network = new IpAddress(address.high() & IpAddress.maskHigh(prefix128),
				address.low() & IpAddress.maskLow(prefix128));
		String canonical = format(network, ipv4, prefix);
		if (!network.equals(address)) {
			return Parsed
				.invalid("host bits are set below the /" + prefix + " prefix; did you mean " + canonical + "?");
		}
		return new Parsed(new CidrRange(network, prefix128, canonical), null);
	}

	private static String format(IpAddress network, boolean ipv4, int prefix) {
		// a range written as IPv6 stays IPv6 even when it is IPv4-mapped: ::ffff:0:0/96,
		// not 0.0.0.0/0
		return (ipv4 ? network.toString() : network.toIpv6String()) + "/" + prefix;
	}

	private static int parsePrefix(String text, int from) {
		int length = text.length() - from;
		if (length < 1 || length > 3 || (length > 1 && text.charAt(from) == '0')) {
			return -1;
		}
		int value = 0;
		for (int i = from; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
			value = value * 10 + (c - '0');
		}
		return value;
	}

	private record Parsed(@Nullable CidrRange range, @Nullable String reason) {

		static Parsed invalid(String reason) {
			return new Parsed(null, reason);
		}

	}

}
