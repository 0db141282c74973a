package io.github.ratelimit.test.redis;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Redis container. Kept apart so that Testcontainers' classes are only loaded when a
 * Docker engine is likely to answer. The container lives as long as the JVM
 * (Testcontainers' Ryuk removes it).
 */
final class TestcontainersRedis {

	private static final DockerImageName IMAGE = DockerImageName.parse("redis:7.4-alpine");

	private static final int REDIS_PORT = 6379;

	private TestcontainersRedis() {
	}

	static boolean dockerAvailable() {
		return DockerClientFactory.instance().isDockerAvailable();
	}

	/** Starts a container and returns its URL. */
	static String start() {
		GenericContainer<?> container = new GenericContainer<>(IMAGE).withExposedPorts(REDIS_PORT);
		container.start();
		return "redis://" + container.getHost() + ":" + container.getMappedPort(REDIS_PORT);
	}

}
