package io.github.ratelimit.test.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells quickly and quietly whether a Docker engine may answer. Testcontainers' own
 * detection tries every strategy and logs each failure, which is slow and noisy on a
 * machine without Docker; it is only consulted when something here points to an engine.
 */
final class DockerProbe {

	private DockerProbe() {
	}

	/** Whether Testcontainers can start containers here. */
	static boolean dockerAvailable() {
		if (!hinted()) {
			return false;
		}
		try {
			return TestcontainersRedis.dockerAvailable();
		}
		catch (Throwable ex) {
			return false;
		}
	}

	private static boolean hinted() {
		if (isSet("DOCKER_HOST") || isSet("TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE")
				|| isSet("TESTCONTAINERS_HOST_OVERRIDE")) {
			return true;
		}
		String home = System.getProperty("user.home", "");
		if (Files.exists(Path.of(home, ".testcontainers.properties"))) {
			return true;
		}
		List<Path> sockets = new ArrayList<>(List.of(Path.of("/var/run/docker.sock"),
				Path.of(home, ".docker", "run", "docker.sock"), Path.of(home, ".docker", "desktop", "docker.sock"),
				Path.of(home, ".colima", "default", "docker.sock")));
		String runtime = System.getenv("XDG_RUNTIME_DIR");
		if (runtime != null && !runtime.isEmpty()) {
			sockets.add(Path.of(runtime, "docker.sock"));
			sockets.add(Path.of(runtime, "podman", "podman.sock"));
		}
		return sockets.stream().anyMatch(Files::exists);
	}

	private static boolean isSet(String name) {
		String value = System.getenv(name);
		return value != null && !value.isBlank();
	}

}
