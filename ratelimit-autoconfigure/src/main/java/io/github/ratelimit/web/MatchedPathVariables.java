package io.github.ratelimit.web;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;

import io.github.ratelimit.policy.PathVariables;

/**
 * The variables of the patterns that classified a request, extracted on first use only:
 * the handler's mapping first (what its {@code @PathVariable}s read), then the configured
 * group's pattern. One per request, read on the request's thread.
 */
final class MatchedPathVariables implements PathVariables {

	private final PathContainer path;

	private final @Nullable PathPattern first;

	private final @Nullable PathPattern second;

	private @Nullable Map<String, String> firstVariables;

	private @Nullable Map<String, String> secondVariables;

	private MatchedPathVariables(PathContainer path, @Nullable PathPattern first, @Nullable PathPattern second) {
		this.path = path;
		this.first = first;
		this.second = second;
	}

	/**
	 * The variables of the matched rules' patterns; {@link PathVariables#NONE} when
	 * neither has any.
	 */
	static PathVariables of(PathContainer path, @Nullable EndpointRule annotation, @Nullable EndpointRule configured) {
		PathPattern first = withVariables(annotation);
		PathPattern second = withVariables(configured);
		if (first == null && second == null) {
			return PathVariables.NONE;
		}
		return new MatchedPathVariables(path, (first != null) ? first : second, (first != null) ? second : null);
	}

	private static @Nullable PathPattern withVariables(@Nullable EndpointRule rule) {
		return (rule != null && rule.pattern().getPatternString().indexOf('{') >= 0) ? rule.pattern() : null;
	}

	@Override
	public @Nullable String get(String name) {
		if (this.firstVariables == null) {
			this.firstVariables = variables(this.first);
		}
		String value = this.firstVariables.get(name);
		if (value != null || this.second == null) {
			return value;
		}
		if (this.secondVariables == null) {
			this.secondVariables = variables(this.second);
		}
		return this.secondVariables.get(name);
	}

	private Map<String, String> variables(@Nullable PathPattern pattern) {
		PathPattern.PathMatchInfo match = (pattern != null) ? pattern.matchAndExtract(this.path) : null;
		return (match != null) ? match.getUriVariables() : Map.of();
	}

}
