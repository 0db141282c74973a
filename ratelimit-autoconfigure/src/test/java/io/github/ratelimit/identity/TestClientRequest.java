package io.github.ratelimit.identity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.util.LinkedCaseInsensitiveMap;

import io.github.ratelimit.core.ClientRequest;

/**
 * A {@link ClientRequest} for tests: {@code TestClientRequest.from("10.0.0.1").header("X-Forwarded-For", "…")}.
 */
final class TestClientRequest implements ClientRequest {

	private final @Nullable String remoteAddress;

	private final Map<String, List<String>> headers = new LinkedCaseInsensitiveMap<>();

	private @Nullable Object principal;

	private TestClientRequest(@Nullable String remoteAddress) {
		this.remoteAddress = remoteAddress;
	}

	static TestClientRequest from(@Nullable String remoteAddress) {
		return new TestClientRequest(remoteAddress);
	}

	/** Adds a field line. */
	TestClientRequest header(String name, String value) {
		this.headers.computeIfAbsent(name, (key) -> new ArrayList<>()).add(value);
		return this;
	}

	TestClientRequest principal(@Nullable Object principal) {
		this.principal = principal;
		return this;
	}

	@Override
	public String method() {
		return "GET";
	}

	@Override
	public String path() {
		return "/";
	}

	@Override
	public @Nullable String remoteAddress() {
		return this.remoteAddress;
	}

	@Override
	public @Nullable String header(String name) {
		List<String> values = this.headers.get(name);
		return (values != null) ? values.get(0) : null;
	}

	@Override
	public List<String> headers(String name) {
		return this.headers.getOrDefault(name, List.of());
	}

	@Override
	public @Nullable Object principal() {
		return this.principal;
	}

}
