package io.github.ratelimit.identity;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Identifies callers by configured API keys. The key is read from one header,
 * {@code X-API-Key} by default. When that header is {@code Authorization}, the value must
 * use the {@code ApiKey} scheme ({@code Authorization: ApiKey <key>}) and other schemes
 * ({@code Bearer}, {@code Basic}) are left to others. Only the configured header is read:
 * a key offered in two places would leave it open which one counts.
 * <p>
 * A known key gives its caller, with the token id
 * {@link CredentialHashes#tokenId(String)} of the key. A missing, empty, oversized (over
 * {@value ApiKey#MAX_KEY_LENGTH} characters), malformed or unknown key gives
 * {@code null}: the request stays anonymous and is limited by its address, so rotating
 * made-up keys buys nothing.
 */
public final class ApiKeyIdentityResolver implements IdentityResolver {

	/** The header read by default. */
	public static final String DEFAULT_HEADER = "X-API-Key";

	private static final String AUTHORIZATION = "Authorization";

	private static final String SCHEME = "ApiKey ";

	private final String headerName;

	private final boolean authorizationHeader;

	/** Callers by the SHA-256 of their key, in lower-case hex. */
	private final Map<String, ResolvedIdentity> callers;

	/**
	 * Creates a resolver that reads {@value #DEFAULT_HEADER}.
	 * @param keys the key definitions
	 * @throws IllegalArgumentException when a key is defined twice
	 */
	public ApiKeyIdentityResolver(List<ApiKey> keys) {
		this(DEFAULT_HEADER, keys);
	}

	/**
	 * Creates a resolver.
	 * @param headerName the header that carries the key
	 * @param keys the key definitions
	 * @throws IllegalArgumentException when the header name is blank or a key is defined
	 * twice (naming both indexes: {@code apiKeys[3]})
	 */
	public ApiKeyIdentityResolver(String headerName, List<ApiKey> keys) {
		if (headerName.isBlank()) {
			throw new IllegalArgumentException("the API key header name must not be blank");
		}
		this.headerName = headerName.strip();
		this.authorizationHeader = AUTHORIZATION.equalsIgnoreCase(this.headerName);
		Map<String, ResolvedIdentity> callers = new HashMap<>();
		Map<String, Integer> indexes = new HashMap<>();
		for (int i = 0; i < keys.size(); i++) {
			ApiKey key = keys.get(i);
			Integer previous = indexes.putIfAbsent(key.keySha256(), i);
			if (previous != null) {
				// two callers for one key would make its identity depend on the order of
				// the list
				throw new IllegalArgumentException(
						"apiKeys[" + i + "] has the same key as apiKeys[" + previous + "]; define each key once");
			}
			callers.put(key.keySha256(), new ResolvedIdentity(key.user(), key.org(), key.tier(),
					CredentialHashes.tokenIdOfSha256(key.keySha256())));
		}
		this.callers = callers;
	}

	@Override
	public @Nullable ResolvedIdentity resolve(ClientRequest request) {
		String key = presentedKey(request);
		if (key == null || !ApiKey.isPresentable(key)) {
			return null;
		}
		// The map compares SHA-256 hashes, not keys. Its timing can show how much of the
		// hash of the presented
		// key matches a stored hash, but choosing a key whose hash matches more is a
		// preimage attack on
		// SHA-256, so the lookup leaks nothing usable about the keys and needs no
		// constant-time comparison.
		return this.callers.get(CredentialHashes.sha256Hex(key));
	}

	private @Nullable String presentedKey(ClientRequest request) {
		String value = request.header(this.headerName);
		if (value == null || value.length() > ApiKey.MAX_KEY_LENGTH + SCHEME.length() + 2) {
			return null;
		}
		value = value.strip();
		if (!this.authorizationHeader) {
			return value;
		}
		if (value.length() <= SCHEME.length() || !value.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
			return null;
		}
		return value.substring(SCHEME.length()).strip();
	}

	@Override
	public String toString() {
		// the key hashes are not secret, but no reader of a log needs them
		return "ApiKeyIdentityResolver[header=" + this.headerName + ", keys=" + this.callers.size() + "]";
	}

}
