package io.github.ratelimit.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.identity.RequestKeyResolver;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.storage.StoreKeys;

/**
 * The keys of the application's choosing ({@code ratelimit.keys}), each with the resolver
 * that reads its value from a request. A resolver that fails leaves its key's limits out
 * of the request (logged once per key): the limiter never fails a request for it.
 */
public final class RequestKeys {

	/** No key. */
	public static final RequestKeys NONE = new RequestKeys(Map.of());

	private static final Logger logger = LoggerFactory.getLogger(RequestKeys.class);

	/**
	 * The longest key value kept as read; a longer one stands as its hash (it is caller
	 * input, and it is named in store keys, bodies and logs).
	 */
	private static final int MAX_VALUE_LENGTH = 256;

	private final Map<String, RequestKeyResolver> resolvers;

	private final Set<String> failed = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the keys.
	 * @param resolvers the resolver of each key, by the key's name
	 */
	public RequestKeys(Map<String, RequestKeyResolver> resolvers) {
		this.resolvers = Map.copyOf(resolvers);
	}

	/** The names of the keys. */
	public Set<String> names() {
		return this.resolvers.keySet();
	}

	/**
	 * The ids by which the limiter counts the keys' limits for the caller of a request,
	 * read outside any endpoint group (a caller's status): as for any request, but with
	 * no path variable to read.
	 * @param request the request
	 * @param identity its caller
	 * @return the ids, each read when first asked for
	 */
	public Values outsideGroups(ClientRequest request, Identity identity) {
		return of(request, Classification.of(Classification.DEFAULT_GROUP, 1), identity);
	}

	/**
	 * The ids of the keys for one request, each read once, when a limit first needs it.
	 */
	Values of(ClientRequest request, Classification classification, Identity identity) {
		return new Values(new KeyedRequest(request, classification), identity);
	}

	/**
	 * The id of a key's value in store keys and reports: the value, or its hash when it
	 * is longer than {@value #MAX_VALUE_LENGTH} characters.
	 */
	private static String id(String value) {
		return (value.length() > MAX_VALUE_LENGTH) ? StoreKeys.hashed(value) : value;
	}

	/** The ids of the keys for one request, each read from it once. */
	public final class Values {

		private final ClientRequest request;

		private final Identity identity;

		// most requests need one key, or none
		private @Nullable String lastName;

		private @Nullable String lastId;

		private @Nullable Map<String, String> more;

		private Values(ClientRequest request, Identity identity) {
			this.request = request;
			this.identity = identity;
		}

		/**
		 * The id of a key for the request's caller.
		 * @param name the key's name
		 * @return the id, or {@code null} when the key's limits do not apply
		 */
		public @Nullable String id(String name) {
			if (name.equals(this.lastName)) {
				return this.lastId;
			}
			if (this.more != null && this.more.containsKey(name)) {
				return this.more.get(name);
			}
			String value = resolve(name);
			String id = (value != null) ? RequestKeys.id(value) : null;
			if (this.lastName != null) {
				if (this.more == null) {
					this.more = new LinkedHashMap<>(4);
				}
				this.more.put(this.lastName, this.lastId);
			}
			this.lastName = name;
			this.lastId = id;
			return id;
		}

		/**
		 * The ids read so far, of the keys that had one, in the order they were read.
		 * @return the ids by key name
		 */
		public Map<String, String> ids() {
			if (this.lastName == null) {
				return Map.of();
			}
			Map<String, String> ids = new LinkedHashMap<>();
			if (this.more != null) {
				this.more.forEach((name, id) -> {
					if (id != null) {
						ids.put(name, id);
					}
				});
			}
			if (this.lastId != null) {
				ids.put(this.lastName, this.lastId);
			}
			return ids;
		}

		private @Nullable String resolve(String name) {
			RequestKeyResolver resolver = RequestKeys.this.resolvers.get(name);
			if (resolver == null) {
				return null;
			}
			try {
				String value = resolver.resolve(this.request, this.identity);
				return (value == null || value.isEmpty()) ? null : value;
			}
			catch (RuntimeException ex) {
				if (RequestKeys.this.failed.add(name)) {
					logger.warn("The resolver of key '{}' failed; its limits are left out of requests it fails on "
							+ "(logged once per key)", name, ex);
				}
				else {
					logger.debug("The resolver of key '{}' failed", name, ex);
				}
				return null;
			}
		}

	}

	/** A request that knows the path variables of the pattern that classified it. */
	private record KeyedRequest(ClientRequest request, Classification classification) implements ClientRequest {

		@Override
		public String method() {
			return this.request.method();
		}

		@Override
		public String path() {
			return this.request.path();
		}

		@Override
		public @Nullable String remoteAddress() {
			return this.request.remoteAddress();
		}

		@Override
		public @Nullable String header(String name) {
			return this.request.header(name);
		}

		@Override
		public List<String> headers(String name) {
			return this.request.headers(name);
		}

		@Override
		public @Nullable Object principal() {
			return this.request.principal();
		}

		@Override
		public @Nullable String pathVariable(String name) {
			return this.classification.pathVariables().get(name);
		}

	}

}
