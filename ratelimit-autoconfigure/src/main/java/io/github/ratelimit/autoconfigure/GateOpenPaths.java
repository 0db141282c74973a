package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.springframework.core.env.Environment;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The paths the gate before authentication never refuses: the Actuator's health endpoint
 * and its groups ({@code /actuator/health/**}), and the probes' additional paths
 * ({@code /livez}, {@code /readyz}) when they are on. A deny rule or a ban on the address
 * of a load balancer or a kubelet must not fail the probes and take healthy instances out
 * of service; everything else under the Actuator is gated.
 */
final class GateOpenPaths {

	private GateOpenPaths() {
	}

	static List<PathPattern> of(Environment environment) {
		String basePath = trimSlashes(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		String health = trimSlashes(environment.getProperty("management.endpoints.web.path-mapping.health", "health"));
		List<String> paths = new ArrayList<>();
		paths.add((basePath.isEmpty() ? "" : "/" + basePath) + "/" + health + "/**");
		if (environment.getProperty("management.endpoint.health.probes.add-additional-paths", Boolean.class, false)) {
			paths.add("/livez");
			paths.add("/readyz");
		}
		return paths.stream().map(PathPatternParser.defaultInstance::parse).toList();
	}

	private static String trimSlashes(String path) {
		String trimmed = path.strip();
		while (trimmed.startsWith("/")) {
			trimmed = trimmed.substring(1);
		}
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return trimmed;
	}

}
