package io.github.ratelimit.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.util.LinkedCaseInsensitiveMap;

import io.github.ratelimit.identity.ClientRequest;

/**
 * A request for tests of the web-free core: a method and path, a TCP peer, header field
 * lines and a principal.
 */
public final class TestRequest implements ClientRequest {

	private final @Nullable String remoteAddress;

	private final Map<String, List<String>> headers = new LinkedCaseInsensitiveMap<>();

	private @Nullable Object principal;

	private Map<String, String> pathVariables = Map.of();

	private final String method;

	private final String path;

	private TestRequest(@Nullable String remoteAddress, String method, String path) {
		this.remoteAddress = remoteAddress;
		this.method = method;
		this.path = path;
	}

	public static TestRequest from(@Nullable String remoteAddress) {
		return new TestRequest(remoteAddress, "GET", "/");
	}

	/** A GET of {@code path} from an unknown peer. */
	public static TestRequest get(String path) {
		return new TestRequest(null, "GET", path);
	}

	/** A POST to {@code path} from an unknown peer. */
	public static TestRequest post(String path) {
		return new TestRequest(null, "POST", path);
	}

	/** Adds a field line (a header may have several). */
	public TestRequest header(String name, String value) {
		this.headers.computeIfAbsent(name, (key) -> new ArrayList<>()).add(value);
		return this;
	}

	/** The variables of the path pattern that classified the request. */
	public TestRequest pathVariables(Map<String, String> variables) {
		this.pathVariables = Map.copyOf(variables);
		return this;
	}

	public TestRequest principal(@Nullable Object principal) {
		this.principal = principal;
		return this;
	}

	@Override
	public String method() {
		return this.method;
	}

	@Override
	public String path() {
		return this.path;
	}

	@Override
	public @Nullable String remoteAddress() {
		return this.remoteAddress;
	}

	@Override
	public @Nullable String header(String name) {
		List<String> values = this.headers.get(name);
		return (values == null || values.isEmpty()) ? null : values.get(0);
	}

	@Override
	public List<String> headers(String name) {
		return this.headers.getOrDefault(name, List.of());
	}

	@Override
	public @Nullable Object principal() {
		return this.principal;
	}

	@Override
	public @Nullable String pathVariable(String name) {
		return this.pathVariables.get(name);
	}

}
