package io.github.ratelimit.keys;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.identity.RequestKeyResolver;

/**
 * A key read from a request header ({@code ratelimit.keys.<key>.header}): its first
 * value, trimmed; a request without it (or with a blank one) is not counted by the key's
 * limits.
 */
public final class HeaderKeyResolver implements RequestKeyResolver {

	private final String header;

	/**
	 * Creates the resolver.
	 * @param header the header's name (case-insensitive)
	 */
	public HeaderKeyResolver(String header) {
		if (header.isBlank()) {
			throw new IllegalArgumentException("a header name must not be blank");
		}
		this.header = header;
	}

	@Override
	public @Nullable String resolve(ClientRequest request, Identity identity) {
		String value = request.header(this.header);
		return (value != null) ? value.strip() : null;
	}

	@Override
	public String toString() {
		return "header " + this.header;
	}

}
