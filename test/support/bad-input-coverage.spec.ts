import { ACCESS_MODEL } from '@app/contracts';
import { V2_OPERATIONS } from './bad-input-v2';

/**
 * The access model names every operation the gateway serves (the access-matrix test fails for
 * one it serves without a row): each v2 one must be reached by the generated bad input too, and
 * every descriptor must name an operation that exists, with the model's parameter names.
 */
describe('the v2 bad-input descriptors', () => {
  const modelled = ACCESS_MODEL.map((r) => r.operation).filter((o) => / \/v2\//.test(o)).map((o) => o.replace(' /v2/', ' ')).sort();
  const described = [...new Set(V2_OPERATIONS.map((d) => d.name.replace(/^v2 /, '')))].sort();

  it('reach every v2 operation of the access model, and name none it does not have', () => {
    expect({ withoutDescriptor: modelled.filter((o) => !described.includes(o)), notInModel: described.filter((d) => !modelled.includes(d)) })
      .toEqual({ withoutDescriptor: [], notInModel: [] });
  });
});
