package io.github.ratelimit.web.reactive;

import java.net.InetSocketAddress;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.http.server.reactive.ServerHttpRequest;

import io.github.ratelimit.identity.ClientRequest;

/**
 * A {@link ServerHttpRequest} as the limiter reads it. The principal is resolved
 * (reactively) before.
 */
final class ReactiveClientRequest implements ClientRequest {

	private final ServerHttpRequest request;

	private final String path;

	private final @Nullable Object principal;

	ReactiveClientRequest(ServerHttpRequest request, String path, @Nullable Object principal) {
		this.request = request;
		this.path = path;
		this.principal = principal;
	}

	@Override
	public String method() {
		return this.request.getMethod().name();
	}

	@Override
	public String path() {
		return this.path;
	}

	@Override
	public @Nullable String remoteAddress() {
		InetSocketAddress address = this.request.getRemoteAddress();
		if (address == null || address.getAddress() == null) {
			return null;
		}
		return address.getAddress().getHostAddress();
	}

	@Override
	public @Nullable String header(String name) {
		return this.request.getHeaders().getFirst(name);
	}

	@Override
	public List<String> headers(String name) {
		List<String> values = this.request.getHeaders().get(name);
		return (values != null) ? values : List.of();
	}

	@Override
	public @Nullable Object principal() {
		return this.principal;
	}

}
