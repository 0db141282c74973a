package io.github.ratelimit.identity;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the client address of a request, the id of the {@code ip} dimension.
 * <p>
 * The TCP peer is the client unless it is a trusted proxy (a configured CIDR range, by
 * default loopback only, see {@link CidrRange#DEFAULT_TRUSTED_PROXIES}). Only then is the
 * forwarding header read: {@code X-Forwarded-For} by default, or RFC 7239
 * {@code Forwarded} (never whichever is present, see {@link ForwardedHeader} for why).
 * The chain is walked right to left, trusted proxies are skipped, and the first untrusted
 * address is the client; anything that is not an address stops the walk at the last
 * trusted hop. A client that is not a trusted proxy can therefore claim nothing: its
 * headers are ignored and it is limited as its TCP address.
 * <p>
 * Addresses are parsed by a strict literal parser that never looks a name up, and
 * grouped: IPv4 by {@code ipv4Prefix} (default 32, the address itself:
 * {@code 203.0.113.7}; 24 gives {@code 203.0.113.0/24}), IPv6 by {@code ipv6Prefix}
 * (default 64: {@code 2001:db8:1:2::/64}), so one host cannot rotate through the
 * addresses of its own /64. An IPv4-mapped IPv6 address ({@code ::ffff:203.0.113.7}) is
 * its IPv4 address. Ids only ever hold {@code [0-9a-f.:/]}, or are {@link #UNKNOWN}.
 * <p>
 * Runs on every request: ranges are parsed once, the header is scanned in place, and
 * nothing here throws for anything a request carries.
 */
public final class ClientIpResolver {

	private static final Logger logger = LoggerFactory.getLogger(ClientIpResolver.class);

	private static final TrustedProxies PRIVATE_RANGES = new TrustedProxies(CidrRange.PRIVATE_RANGES);

	/** The id of a request whose address is unknown. */
	public static final String UNKNOWN = "unknown";

	/** The default IPv4 prefix length: every address is its own group. */
	public static final int DEFAULT_IPV4_PREFIX = 32;

	/** The default IPv6 prefix length: the /64 a single host or LAN is usually given. */
	public static final int DEFAULT_IPV6_PREFIX = 64;

	private final TrustedProxies trustedProxies;

	private final int ipv4Prefix;

	private final int ipv6Prefix;

	private final ForwardedHeader forwardedHeader;

	private volatile boolean warnedOfUntrustedProxy;

	/**
	 * Creates a resolver that reads {@code X-Forwarded-For} from trusted proxies.
	 * @param trustedProxies the CIDR ranges of the proxies whose forwarding header is
	 * believed
	 * @param ipv4Prefix the prefix length IPv4 clients are grouped by, 0 to 32
	 * @param ipv6Prefix the prefix length IPv6 clients are grouped by, 0 to 128
	 * @throws IllegalArgumentException naming the first invalid range
	 * ({@code trustedProxies[2]: ...}) or prefix
	 */
	public ClientIpResolver(List<String> trustedProxies, int ipv4Prefix, int ipv6Prefix) {
		this(trustedProxies, ipv4Prefix, ipv6Prefix, ForwardedHeader.X_FORWARDED_FOR);
	}

	/**
	 * Creates a resolver.
	 * @param trustedProxies the CIDR ranges of the proxies whose forwarding header is
	 * believed
	 * @param ipv4Prefix the prefix length IPv4 clients are grouped by, 0 to 32
	 * @param ipv6Prefix the prefix length IPv6 clients are grouped by, 0 to 128
	 * @param forwardedHeader the header the trusted proxies write
	 * @throws IllegalArgumentException naming the first invalid range
	 * ({@code trustedProxies[2]: ...}) or prefix
	 */
	public ClientIpResolver(List<String> trustedProxies, int ipv4Prefix, int ipv6Prefix,
			ForwardedHeader forwardedHeader) {
		this(new TrustedProxies(trustedProxies), ipv4Prefix, ipv6Prefix, forwardedHeader);
	}

	/**
	 * Creates a resolver from ranges parsed already (by the configuration's binder).
	 * @param trustedProxies the proxies whose forwarding header is believed
	 * @param ipv4Prefix the prefix length IPv4 clients are grouped by, 0 to 32
	 * @param ipv6Prefix the prefix length IPv6 clients are grouped by, 0 to 128
	 * @param forwardedHeader the header the trusted proxies write
	 * @return the resolver
	 */
	public static ClientIpResolver trusting(List<CidrRange> trustedProxies, int ipv4Prefix, int ipv6Prefix,
			ForwardedHeader forwardedHeader) {
		return new ClientIpResolver(new TrustedProxies(trustedProxies.toArray(CidrRange[]::new)), ipv4Prefix,
				ipv6Prefix, forwardedHeader);
	}

	private ClientIpResolver(TrustedProxies trustedProxies, int ipv4Prefix, int ipv6Prefix,
			ForwardedHeader forwardedHeader) {
		if (ipv4Prefix < 0 || ipv4Prefix > 32) {
			throw new IllegalArgumentException("ipv4Prefix must be from 0 to 32, not " + ipv4Prefix);
		}
		if (ipv6Prefix < 0 || ipv6Prefix > 128) {
			throw new IllegalArgumentException("ipv6Prefix must be from 0 to 128, not " + ipv6Prefix);
		}
		this.trustedProxies = trustedProxies;
		this.ipv4Prefix = ipv4Prefix;
		this.ipv6Prefix = ipv6Prefix;
		this.forwardedHeader = forwardedHeader;
	}

	/**
	 * Resolves the id of the client: its address, grouped by prefix.
	 * @param request the request
	 * @return the id, for example {@code 203.0.113.7} or {@code 2001:db8:1:2::/64}, or
	 * {@link #UNKNOWN} when the server does not know the peer address
	 */
	public String resolve(ClientRequest request) {
		String remote = request.remoteAddress();
		IpAddress peer = (remote != null) ? IpLiterals.parseNode(remote, 0, remote.length()) : null;
		if (remote == null || peer == null) {
			return UNKNOWN;
		}
		IpAddress client = client(request, peer);
		if (client == peer && this.ipv4Prefix == 32 && peer.isIpv4() && remote.indexOf(':') < 0) {
			// the common case: a strict dotted quad without a port is already canonical
			return remote;
		}
		return client.toGroup(this.ipv4Prefix, this.ipv6Prefix);
	}

	/**
	 * Resolves the address of the client, not grouped, for rules that match single
	 * addresses (allow and deny lists).
	 * @param request the request
	 * @return the address in canonical form ({@code 203.0.113.7}, {@code 2001:db8::1}),
	 * or {@link #UNKNOWN}
	 */
	public String resolveAddress(ClientRequest request) {
		String remote = request.remoteAddress();
		IpAddress peer = (remote != null) ? IpLiterals.parseNode(remote, 0, remote.length()) : null;
		return (peer != null) ? client(request, peer).toString() : UNKNOWN;
	}

	/**
	 * The id this resolver gives the clients an operator names, so that what is set for
	 * them applies: an address becomes its group ({@code 2001:db8:5::1} is
	 * {@code 2001:db8:5::/64} by default), a group must be one of the configured prefix
	 * length.
	 * @param text an address ({@code 198.51.100.7}, {@code 2001:db8:5::1}), a group
	 * ({@code 2001:db8:5::/64}) or {@link #UNKNOWN}
	 * @return the id, as {@link #resolve} gives it to the clients named
	 * @throws IllegalArgumentException when the text names no client group of this
	 * resolver, with the form to use
	 */
	public String idOf(String text) {
		String trimmed = text.strip();
		if (UNKNOWN.equals(trimmed)) {
			return UNKNOWN;
		}
		int slash = trimmed.indexOf('/');
		IpAddress address = IpLiterals.parseAddress(trimmed, 0, (slash >= 0) ? slash : trimmed.length());
		if (address == null) {
			throw new IllegalArgumentException("'" + trimmed + "' is not an IP address; name a client by its "
					+ "address (198.51.100.7, 2001:db8:5::1) or by the group it is counted in (" + example(false)
					+ ")");
		}
		String id = address.toGroup(this.ipv4Prefix, this.ipv6Prefix);
		if (slash < 0) {
			return id;
		}
		String reason = CidrRange.invalidReason(trimmed);
		boolean ipv4 = trimmed.lastIndexOf(':', slash) < 0;
		int prefix = address.isIpv4() ? this.ipv4Prefix : this.ipv6Prefix;
		if (reason != null || ipv4 != address.isIpv4() || !trimmed.endsWith("/" + prefix)) {
			throw new IllegalArgumentException("'" + trimmed + "' is not a group clients are counted in: IPv4 clients "
					+ "are counted by /" + this.ipv4Prefix + " (ratelimit.identity.ipv4-prefix), IPv6 clients by /"
					+ this.ipv6Prefix + " (ratelimit.identity.ipv6-prefix); name an address (198.51.100.7, "
					+ "2001:db8:5::1) or its group (" + id + ")");
		}
		return id;
	}

	/**
	 * A client id as this resolver gives it, for messages: {@code 198.51.100.7},
	 * {@code 2001:db8:5::/64}.
	 */
	public String example(boolean ipv4) {
		return ipv4 ? IpAddress.ofIpv4(0xc6336407L).toGroup(this.ipv4Prefix, this.ipv6Prefix)
				: new IpAddress(0x20010db800050000L, 1).toGroup(this.ipv4Prefix, this.ipv6Prefix);
	}

	private IpAddress client(ClientRequest request, IpAddress peer) {
		if (!this.trustedProxies.contains(peer)) {
			if (!this.warnedOfUntrustedProxy && PRIVATE_RANGES.contains(peer)) {
				warnIfForwarded(request, peer);
			}
			return peer;
		}
		List<String> lines = request.headers(this.forwardedHeader.headerName());
		if (lines.isEmpty()) {
			return peer;
		}
		IpAddress client = (this.forwardedHeader == ForwardedHeader.FORWARDED)
				? ForwardedChain.walkForwarded(lines, this.trustedProxies)
				: ForwardedChain.walkXForwardedFor(lines, this.trustedProxies);
		return (client != null) ? client : peer;
	}

	// a private peer that forwards is most likely the application's own load balancer,
	// left out of the
	// trusted proxies: every client behind it then shares its budget. Say so once.
	private void warnIfForwarded(ClientRequest request, IpAddress peer) {
		if (request.header(this.forwardedHeader.headerName()) != null) {
			this.warnedOfUntrustedProxy = true;
			logger
				.warn("Requests from {} carry {}, but {} is not a trusted proxy: they are all limited as {}. If it is "
						+ "your load balancer or ingress, add it to ratelimit.identity.trusted-proxies (for example "
						+ "{}); this is said once", peer, this.forwardedHeader.headerName(), peer, peer,
						CidrRange.PRIVATE_RANGES);
		}
	}

	@Override
	public String toString() {
		return "ClientIpResolver[trustedProxies=" + this.trustedProxies + ", header=" + this.forwardedHeader
				+ ", ipv4Prefix=" + this.ipv4Prefix + ", ipv6Prefix=" + this.ipv6Prefix + "]";
	}

}
