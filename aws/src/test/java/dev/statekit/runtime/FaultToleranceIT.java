package dev.statekit.runtime;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.testservers.RealServers;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The fault test against Dynoxide and ElasticMQ, egress records in a DynamoDB table. */
@ExtendWith(RealServers.class)
class FaultToleranceIT extends FaultToleranceContract {
  private RealServerSet servers;
  private EgressSink sink;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, SqsClient sqs) {
    servers = new RealServerSet(dynamoDb, sqs);
    sink = DynamoDbTableSink.onApplicationTable(dynamoDb, servers.table());
  }

  @Override
  Servers servers() {
    return servers;
  }

  @Override
  EgressSink egressSink() {
    return sink;
  }

  @Override
  Map<String, Integer> egressTexts() {
    Map<String, Integer> texts = new HashMap<>();
    servers
        .dynamoDb()
        .queryPaginator(
            b ->
                b.tableName(servers.table())
                    .keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(
                        Map.of(":pk", AttributeValue.fromS("egress#" + TestFunctions.COUNTED))))
        .items()
        .forEach(item -> texts.merge(item.get("text").s(), 1, Integer::sum));
    return texts;
  }
}
