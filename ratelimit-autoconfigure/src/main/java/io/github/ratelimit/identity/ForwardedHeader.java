package io.github.ratelimit.identity;

/**
 * Which forwarding header a {@link ClientIpResolver} reads when the TCP peer is a trusted
 * proxy.
 * <p>
 * There is deliberately no "whichever is present" choice. A proxy only overwrites or
 * appends to the header it writes and passes the other one through from the client
 * unchanged; a resolver that preferred the other header when present would let any client
 * behind that proxy claim any address, and rotate addresses to escape its limits. Pick
 * the header your outermost trusted proxy writes.
 */
public enum ForwardedHeader {

	/**
	 * The de facto {@code X-Forwarded-For} header, written by nginx, HAProxy, Envoy,
	 * Traefik and the cloud load balancers, and read by Tomcat's {@code RemoteIpValve}.
	 * The default.
	 */
	X_FORWARDED_FOR("X-Forwarded-For"),

	/** The RFC 7239 {@code Forwarded} header, its {@code for} parameter. */
	FORWARDED("Forwarded");

	private final String headerName;

	ForwardedHeader(String headerName) {
		this.headerName = headerName;
	}

	/** The name of the HTTP header. */
	public String headerName() {
		return this.headerName;
	}

}
