import type {
  IExecuteFunctions,
  INodeExecutionData,
  INodeType,
  INodeTypeDescription,
  JsonObject,
} from "n8n-workflow";
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from "n8n-workflow";
import { CREDENTIALS } from "./api.ts";
import { runOperation } from "./operations.ts";
import { properties } from "./properties.ts";

/**
 * The media rendering service in n8n: render images, videos and templates (create the job, follow its event stream
 * to the end, output the file as binary data), validate configs, upload files, read and download jobs.
 */
export class MediaRender implements INodeType {
  description: INodeTypeDescription = {
    displayName: "Media Render",
    name: "mediaRender",
    icon: { light: "file:../../icons/mediaRender.svg", dark: "file:../../icons/mediaRender.dark.svg" },
    group: ["transform"],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: "Render images and videos from JSON configs with the media rendering service",
    defaults: { name: "Media Render" },
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    usableAsTool: true,
    credentials: [{ name: CREDENTIALS, required: true }],
    properties,
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const returnData: INodeExecutionData[] = [];
    for (let i = 0; i < items.length; i++) {
      const resource = this.getNodeParameter("resource", i) as string;
      const operation = this.getNodeParameter("operation", i) as string;
      try {
        const outputs = await runOperation(this, i, resource, operation);
        for (const output of outputs) returnData.push({ ...output, pairedItem: { item: i } });
      } catch (error) {
        if (!this.continueOnFail()) {
          // The operations throw n8n's errors already (both hand back an error of their own kind unchanged).
          if (error instanceof NodeApiError)
            throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
          throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
        }
        returnData.push({
          json: {
            error: (error as Error).message,
            description: (error as { description?: string }).description,
          },
          pairedItem: { item: i },
        });
      }
    }
    return [returnData];
  }
}
