package dev.statekit.runtime;

/**
 * The reliability cases against Dynoxide and ElasticMQ; the fan-in case with a small mark capacity,
 * so its marks leave the item as they do at the default with ten thousand senders.
 */
class ReliabilityCasesIT extends ReliabilityCasesContract implements OnRealServers {
  @Override
  int senders() {
    return 300;
  }

  @Override
  int markCapacity() {
    return 8;
  }
}
