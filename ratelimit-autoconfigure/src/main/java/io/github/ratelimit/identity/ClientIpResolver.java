package io.github.ratelimit.identity;

import java.util.List;

import io.github.ratelimit.core.ClientRequest;

/**
 * Finds the client address of a request. PLACEHOLDER: to be replaced by the trusted-proxy walk.
 */
public final class ClientIpResolver {

	/** The id of a request whose address is unknown. */
	public static final String UNKNOWN = "unknown";

	public ClientIpResolver(List<String> trustedProxies, int ipv4Prefix, int ipv6Prefix) {
	}

	public String resolve(ClientRequest request) {
		String remote = request.remoteAddress();
		return (remote != null) ? remote : UNKNOWN;
	}

}
