package io.github.ratelimit.test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.ClientRequest;

/** A request for tests of the web-free core. */
public final class TestRequest implements ClientRequest {

	private final String remoteAddress;

	private final Map<String, List<String>> headers = new LinkedHashMap<>();

	private @Nullable Object principal;

	private TestRequest(String remoteAddress) {
		this.remoteAddress = remoteAddress;
	}

	public static TestRequest from(String remoteAddress) {
		return new TestRequest(remoteAddress);
	}

	public TestRequest header(String name, String... values) {
		this.headers.put(name.toLowerCase(Locale.ROOT), List.of(values));
		return this;
	}

	public TestRequest principal(Object principal) {
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
	public String remoteAddress() {
		return this.remoteAddress;
	}

	@Override
	public @Nullable String header(String name) {
		List<String> values = headers(name);
		return values.isEmpty() ? null : values.get(0);
	}

	@Override
	public List<String> headers(String name) {
		return this.headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
	}

	@Override
	public @Nullable Object principal() {
		return this.principal;
	}

}
