package io.github.ratelimit.keys;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identity;

/**
 * What a key's expression reads ({@code ratelimit.keys.<key>.expression}):
 * {@code request} (method, path, {@code header(name)}, {@code pathVariable(name)}) and
 * {@code identity} (user, org, ip, tier, authenticated). Views of our own, so an
 * expression reaches nothing else of the request (its principal, its credentials).
 */
public final class KeyExpressionRoot {

	private final Request request;

	private final Caller identity;

	KeyExpressionRoot(ClientRequest request, Identity identity) {
		this.request = new Request(request);
		this.identity = new Caller(identity);
	}

	/** The request: {@code request.header('X-Product')}, {@code request.path}. */
	public Request getRequest() {
		return this.request;
	}

	/** The caller: {@code identity.org}, {@code identity.tier}. */
	public Caller getIdentity() {
		return this.identity;
	}

	/** The request as an expression sees it. */
	public static final class Request {

		private final ClientRequest request;

		Request(ClientRequest request) {
			this.request = request;
		}

		/** The HTTP method, upper case. */
		public String getMethod() {
			return this.request.method();
		}

		/** The path within the application. */
		public String getPath() {
			return this.request.path();
		}

		/** The first value of a header, or {@code null}. */
		public @Nullable String header(String name) {
			return this.request.header(Objects.requireNonNull(name));
		}

		/**
		 * A variable of the path pattern that classified the request, or {@code null}.
		 */
		public @Nullable String pathVariable(String name) {
			return this.request.pathVariable(Objects.requireNonNull(name));
		}

	}

	/** The caller as an expression sees it: verified values and the client address. */
	public static final class Caller {

		private final Identity identity;

		Caller(Identity identity) {
			this.identity = identity;
		}

		/** The verified user, or {@code null}. */
		public @Nullable String getUser() {
			return this.identity.user();
		}

		/** The verified organisation, or {@code null}. */
		public @Nullable String getOrg() {
			return this.identity.org();
		}

		/** The client address, grouped by prefix. */
		public String getIp() {
			return this.identity.ip();
		}

		/** The tier. */
		public String getTier() {
			return this.identity.tier();
		}

		/** Whether the caller was verified. */
		public boolean isAuthenticated() {
			return this.identity.authenticated();
		}

	}

}
